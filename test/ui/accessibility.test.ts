/**
 * An accessibility audit of every view in the state a person reviews it in — search results with a
 * score explained and a memory's history open, a dream plan with a merge, conflicts and the review
 * tier, a run's details, the sleep candidates explained with the MEMORY.md diff, a scan — by axe-core
 * (the engine behind Lighthouse's accessibility audit) against WCAG 2.1 A and AA, in the light and
 * the dark colour scheme (the page follows the system's). Any violation fails, with its rule, help
 * text and the elements it found.
 *
 * axe runs through Playwright's `evaluate`, not a script tag: the page's policy (`default-src
 * 'self'`) refuses inline scripts, and must go on refusing them.
 */

import { readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../http/rest-server.js";
import {
  buildUi,
  describeWithChromium,
  launchUiBrowser,
  UI_TEST_TIMEOUT,
  type UiBrowser,
  watchPage,
} from "./browser.js";
import { writeKyotoWorkspace } from "./kyoto-workspace.js";

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const WCAG = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];
const SCHEMES = ["light", "dark"] as const;

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: readonly { readonly target: readonly unknown[]; readonly failureSummary?: string }[];
}

/** axe's violations on the page as it is now, one line each: rule, impact, help, where. */
async function audit(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async (tags) => {
    const axe = (
      globalThis as unknown as { axe: { run(options: unknown): Promise<{ violations: unknown }> } }
    ).axe;
    const result = await axe.run({ runOnly: { type: "tag", values: tags }, resultTypes: ["violations"] });
    return result.violations as AxeViolation[];
  }, WCAG);
  return violations.map(
    (violation) =>
      `${violation.id} (${violation.impact}): ${violation.help} — ${violation.nodes
        .slice(0, 3)
        .map((node) => `${node.target.join(" ")}: ${node.failureSummary ?? ""}`)
        .join("; ")}`,
  );
}

/** Memories a dream has work for: a merge, a conflict, a look-alike for review, and noise. */
async function seed(server: TestServer, scope: { userId: string }): Promise<void> {
  await server.memory.add("Alice drinks green tea every morning", scope);
  await server.memory.add("Alice drinks green tea every single morning", scope);
  await server.memory.add("Alice's deploy target for billing-api is us-east-1", {
    ...scope,
    createdAt: "2026-01-01T00:00:00Z",
  });
  await server.memory.add("Alice's deploy target for billing-api is eu-west-1", {
    ...scope,
    createdAt: "2026-03-01T00:00:00Z",
  });
  await server.memory.add("The deploy target of payments-api is Render.", scope);
  await server.memory.add("payments-api deploys to AWS.", scope);
  await server.memory.add("ok thanks", scope);
}

describeWithChromium("web UI: accessibility (axe-core, WCAG 2.1 AA)", () => {
  let server: TestServer;
  let ui: UiBrowser;
  let dir: string;
  let note: string;

  beforeAll(async () => {
    await buildUi();
    const kyoto = writeKyotoWorkspace("lucid-ui-a11y-");
    ({ dir, note } = kyoto);
    server = await startTestServer({ workspace: dir });
    await kyoto.recall(server.memory.workspace(dir));
    // A scope per colour scheme: each test applies a dream of its own.
    for (const scheme of SCHEMES) await seed(server, { userId: `alice-${scheme}` });
    ui = await launchUiBrowser();
  }, UI_TEST_TIMEOUT);
  afterAll(async () => {
    await ui?.close();
    await server?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  for (const scheme of SCHEMES) {
    it(
      `finds no WCAG 2.1 A/AA violation in any view, ${scheme}`,
      async () => {
        const page = await ui.page();
        await page.emulateMedia({ colorScheme: scheme });
        const problems = watchPage(page, server.url);
        const found: Record<string, string[]> = {};

        await page.goto(`${server.url}/#/memories?user_id=alice-${scheme}`);
        await page.getByLabel("Search memories").fill("green tea");
        await page.getByLabel("Search memories").press("Enter");
        const hit = page.getByRole("list", { name: "Search results" }).getByRole("listitem").first();
        await hit.getByText("Why this score").click();
        await hit.getByRole("table").waitFor();
        found.search = await audit(page);

        await page.getByRole("button", { name: "Show all" }).click();
        const card = page.getByRole("listitem").filter({ hasText: "every single morning" });
        await card.getByRole("button", { name: /every single morning/ }).click();
        await card.getByRole("button", { name: "History" }).click();
        await card.getByRole("list", { name: "History" }).waitFor();
        await card.getByRole("button", { name: "Edit" }).click();
        await card.getByLabel("Memory text").waitFor();
        found.memories = await audit(page);

        await page.getByRole("tab", { name: "Dream" }).click();
        await page.getByRole("button", { name: "Plan a dream" }).click();
        await page.getByRole("heading", { name: /^For review/ }).waitFor();
        found.dream = await audit(page);

        await page.getByRole("button", { name: "Apply" }).click();
        await page.getByRole("heading", { name: /^Applied/ }).waitFor();
        found.applied = await audit(page);

        await page.getByRole("tab", { name: "Runs" }).click();
        await page.getByRole("button", { name: "Details" }).first().click();
        await page.getByRole("heading", { name: "Memories it touched" }).waitFor();
        found.runs = await audit(page);

        await page.getByRole("tab", { name: "Sleep" }).click();
        await page.getByRole("button", { name: `Explain ${note}#L4-L4` }).click();
        await page.getByRole("button", { name: "Preview promotion" }).click();
        await page.getByRole("heading", { name: "Promotion preview" }).waitFor();
        found.sleep = await audit(page);

        await page.getByRole("tab", { name: "Scan" }).click();
        await page.getByRole("button", { name: "Scan memories" }).click();
        await page.getByRole("status").filter({ hasText: "memories scanned" }).waitFor();
        found.scan = await audit(page);

        expect(found).toEqual({
          search: [],
          memories: [],
          dream: [],
          applied: [],
          runs: [],
          sleep: [],
          scan: [],
        });
        expect(problems).toEqual([]);
        // The audit can fail: an image with no text alternative is found.
        await page.evaluate(
          'document.body.append(Object.assign(document.createElement("img"), { src: "data:," }))',
        );
        expect((await audit(page)).some((line) => line.startsWith("image-alt"))).toBe(true);
        await page.close();
      },
      UI_TEST_TIMEOUT,
    );
  }
});
