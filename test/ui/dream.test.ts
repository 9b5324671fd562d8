/**
 * Reviewing a dream in the web UI, as a person does: pick the scope, plan, read the merges and the
 * conflict with their texts side by side, choose B on the conflict, accept a review item, apply,
 * read the counts; the store changed. Then the Runs view: the run's details, undo it; the store is
 * as it was.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startTestServer, type TestServer } from "../http/rest-server.js";
import {
  buildUi,
  describeWithChromium,
  launchUiBrowser,
  screenshot,
  UI_TEST_TIMEOUT,
  type UiBrowser,
  watchPage,
} from "./browser.js";

const alice = { userId: "alice" };

/** The scope's texts, sorted: what "the store" is for these tests. */
async function texts(server: TestServer): Promise<string[]> {
  const { results } = await server.memory.getAll({ ...alice, showExpired: true });
  return results.map((item) => item.memory).sort();
}

describeWithChromium("web UI: dream review, apply and undo", () => {
  let server: TestServer;
  let ui: UiBrowser;
  let page: Page;
  let problems: string[];
  let seeded: string[];

  beforeAll(async () => {
    await buildUi();
    server = await startTestServer();
    await server.memory.add("Alice drinks green tea every morning", alice);
    await server.memory.add("Alice drinks green tea every single morning", alice);
    await server.memory.add("Alice's deploy target for billing-api is us-east-1", {
      ...alice,
      createdAt: "2026-01-01T00:00:00Z",
    });
    await server.memory.add("Alice's deploy target for billing-api is eu-west-1", {
      ...alice,
      createdAt: "2026-03-01T00:00:00Z",
    });
    // Look-alikes that may disagree: the review tier, not an action.
    await server.memory.add("The deploy target of payments-api is Render.", alice);
    await server.memory.add("payments-api deploys to AWS.", alice);
    await server.memory.add("Alice is allergic to peanuts", alice);
    await server.memory.add("ok thanks", alice);
    await server.memory.add("Bob's editor is Emacs", { userId: "bob" });
    seeded = await texts(server);
    ui = await launchUiBrowser();
    page = await ui.page();
    problems = watchPage(page, server.url);
  }, UI_TEST_TIMEOUT);
  afterAll(async () => {
    await ui?.close();
    await server?.close();
  });

  it(
    "plans a dream with merges and conflicts side by side, applies the person's choices, and shows the counts",
    async () => {
      await page.goto(`${server.url}/`);
      await expect.poll(() => page.getByRole("heading", { name: "Lucid", level: 1 }).isVisible()).toBe(true);
      await page.getByLabel("Known scopes").selectOption("user_id=alice");
      const aliceOption = page.getByLabel("Known scopes").locator('option[value="user_id=alice"]');
      expect(await aliceOption.textContent()).toBe(`user alice (${seeded.length})`);
      await page.getByRole("tab", { name: "Dream" }).click();
      expect(new URL(page.url()).hash).toBe("#/dream?user_id=alice");

      await page.getByRole("button", { name: "Plan a dream" }).click();
      await page.getByRole("heading", { name: "Merges (1)" }).waitFor();

      // The merge: both members' texts beside each other, and the merged text.
      const merge = page.getByRole("article", { name: "Merge 1" });
      const members = merge.getByRole("figure");
      await expect.poll(() => members.count()).toBe(2);
      const [first, second] = [await members.nth(0).boundingBox(), await members.nth(1).boundingBox()];
      expect(first?.y).toBe(second?.y);
      expect((first?.x ?? 0) + (first?.width ?? 0)).toBeLessThanOrEqual(second?.x ?? 0);
      const memberTexts = await members.locator("blockquote").allTextContents();
      expect(memberTexts.sort()).toEqual([
        "Alice drinks green tea every morning",
        "Alice drinks green tea every single morning",
      ]);
      expect(await merge.textContent()).toContain("Merged text");
      expect(await merge.textContent()).toContain("Why: 2 memories state the same fact");

      // The conflict: A and B side by side, the suggested winner marked, Skip by default.
      const conflict = page.getByRole("group", { name: "Conflict 1" });
      const a = conflict.getByRole("figure", { name: "A" });
      const b = conflict.getByRole("figure", { name: "B" });
      const [boxA, boxB] = [await a.boundingBox(), await b.boundingBox()];
      expect(boxA?.y).toBe(boxB?.y);
      const textA = (await a.locator("blockquote").textContent()) ?? "";
      const textB = (await b.locator("blockquote").textContent()) ?? "";
      expect([textA, textB].sort()).toEqual([
        "Alice's deploy target for billing-api is eu-west-1",
        "Alice's deploy target for billing-api is us-east-1",
      ]);
      expect(await conflict.textContent()).toContain("suggested winner");
      expect(await conflict.getByRole("radio", { name: "Skip" }).isChecked()).toBe(true);
      await conflict.getByRole("radio", { name: "Keep B" }).check();

      // The prune, with its reason.
      const prune = page.getByRole("article", { name: "Prune 1" });
      expect(await prune.textContent()).toContain("ok thanks");

      // The review tier: not accepted unless ticked; accepted, it is a conflict to decide (keep A).
      const review = page.getByRole("group", { name: /^Review 1: possible conflict/ });
      const accept = review.getByRole("checkbox", { name: /Accept/ });
      expect(await accept.isChecked()).toBe(false);
      const reviewTexts = await review.getByRole("figure").locator("blockquote").allTextContents();
      expect(reviewTexts.sort()).toEqual([
        "The deploy target of payments-api is Render.",
        "payments-api deploys to AWS.",
      ]);
      const reviewA =
        (await review.getByRole("figure", { name: "A" }).locator("blockquote").textContent()) ?? "";
      const reviewB =
        (await review.getByRole("figure", { name: "B" }).locator("blockquote").textContent()) ?? "";
      await accept.check();
      await review.getByRole("radio", { name: "Keep A" }).check();
      await screenshot(page, "dream-plan");

      const answer = page.waitForResponse((response) => response.url().endsWith("/lucid/v1/dream/apply"));
      await page.getByRole("button", { name: "Apply", exact: true }).click();
      const applied = (await (await answer).json()) as { runId: string; counts: Record<string, number> };
      await page.getByRole("heading", { name: "Applied" }).waitFor();
      // The Apply button is gone with the plan: the cursor is on what it did.
      await expect
        .poll(() => page.getByRole("heading", { name: "Applied" }).evaluate((h) => h.matches(":focus")))
        .toBe(true);
      expect(applied.counts).toMatchObject({
        merged: 1,
        pruned: 1,
        conflictsResolved: 2,
        conflictsSkipped: 0,
      });
      const counts = page.getByLabel("Apply counts");
      expect(await counts.textContent()).toContain("Conflicts resolved2");
      expect(await counts.textContent()).toContain("Pruned1");
      expect(await page.getByRole("main").textContent()).toContain(applied.runId);
      await page.getByRole("button", { name: "Undo this run" }).waitFor();
      await screenshot(page, "dream-applied");

      // The store: one green tea memory, B of the conflict kept, A of the review kept, no chatter.
      const after = await texts(server);
      expect(after).toHaveLength(seeded.length - 4);
      expect(after.filter((text) => text.includes("green tea"))).toHaveLength(1);
      expect(after).toContain(textB);
      expect(after).not.toContain(textA);
      expect(after).toContain(reviewA);
      expect(after).not.toContain(reviewB);
      expect(after).not.toContain("ok thanks");
      expect((await server.memory.getAll({ userId: "bob" })).results).toHaveLength(1);

      // The header's count follows the store.
      await expect.poll(() => aliceOption.textContent()).toBe(`user alice (${seeded.length - 4})`);

      // Applied once: the plan is gone from the page.
      expect(await page.getByRole("button", { name: "Apply", exact: true }).count()).toBe(0);

      // Runs: the run, its details, undo.
      await page.getByRole("tab", { name: "Runs" }).click();
      const row = page.getByRole("row").filter({ hasText: applied.runId });
      await row.waitFor();
      expect(await row.textContent()).toContain("interactive");
      expect(await row.textContent()).toContain("active");
      await row.getByRole("button", { name: `Details of run ${applied.runId}` }).click();
      const touched = page.getByRole("table").filter({ hasText: "Before the run" });
      await touched.waitFor();
      expect(await touched.textContent()).toContain("ok thanks");
      expect(await touched.textContent()).toContain("deleted");
      // Each action with the texts it acted on, and the text a merge wrote.
      const outcomes = (await page.locator("ul.outcomes").textContent()) ?? "";
      expect(outcomes).toContain("delete applied ok thanks");
      expect(outcomes).toMatch(/merge applied .*green tea.* → .*green tea/);
      expect(outcomes).toContain(`conflict applied ${textA} vs ${textB}`);
      expect(outcomes).not.toMatch(/[0-9a-f]{8}-[0-9a-f]{4}-/);

      await row.getByRole("button", { name: "Undo", exact: true }).click();
      await page.getByRole("status").filter({ hasText: "undone" }).waitFor();
      await expect.poll(async () => await row.textContent()).toContain("undone");
      await screenshot(page, "runs-after-undo");
      expect(await texts(server)).toEqual(seeded);
      await expect.poll(() => aliceOption.textContent()).toBe(`user alice (${seeded.length})`);
      expect(problems).toEqual([]);
    },
    UI_TEST_TIMEOUT,
  );

  it(
    "stacks the texts on a narrow screen, with nothing wider than it",
    async () => {
      await server.memory.add("Erin runs five kilometres every morning", { userId: "erin" });
      await server.memory.add("Erin runs five kilometres every single morning", { userId: "erin" });
      const narrow = await ui.page();
      const seen = watchPage(narrow, server.url);
      await narrow.setViewportSize({ width: 390, height: 800 });
      await narrow.goto(`${server.url}/#/dream?user_id=erin`);
      await narrow.getByRole("button", { name: "Plan a dream" }).click();
      const members = narrow.getByRole("article", { name: "Merge 1" }).getByRole("figure");
      await expect.poll(() => members.count()).toBe(2);
      const [first, second] = [await members.nth(0).boundingBox(), await members.nth(1).boundingBox()];
      expect(second?.y ?? 0).toBeGreaterThan((first?.y ?? 0) + (first?.height ?? 0) - 1);
      expect(await narrow.evaluate<number>("document.documentElement.scrollWidth")).toBeLessThanOrEqual(390);
      await screenshot(narrow, "dream-plan-narrow");
      expect(seen).toEqual([]);
      await narrow.close();
    },
    UI_TEST_TIMEOUT,
  );

  it(
    "applies what the person kept and leaves what they declined",
    async () => {
      await server.memory.add("Fay drinks oolong every afternoon", { userId: "fay" });
      await server.memory.add("Fay drinks oolong every single afternoon", { userId: "fay" });
      await server.memory.add("ok thanks", { userId: "fay" });
      await page.goto(`${server.url}/#/dream?user_id=fay`);
      await page.getByRole("button", { name: "Plan a dream" }).click();
      const prune = page.getByRole("article", { name: "Prune 1" });
      await prune.waitFor();
      const merge = page.getByRole("article", { name: "Merge 1" });
      expect(await merge.getByRole("checkbox", { name: "Apply this merge" }).isChecked()).toBe(true);
      await prune.getByRole("checkbox", { name: "Apply this prune" }).uncheck();
      const answer = page.waitForResponse((response) => response.url().endsWith("/lucid/v1/dream/apply"));
      await page.getByRole("button", { name: "Apply", exact: true }).click();
      const applied = (await (await answer).json()) as {
        counts: Record<string, number>;
        actions: { kind: string; status: string; note?: string }[];
      };
      expect(applied.counts).toMatchObject({ merged: 1, pruned: 0 });
      expect(applied.actions).toContainEqual(
        expect.objectContaining({ kind: "delete", status: "skipped", note: "declined" }),
      );
      const left = (await server.memory.getAll({ userId: "fay" })).results.map((item) => item.memory);
      expect(left).toContain("ok thanks");
      expect(left.filter((text) => text.includes("oolong"))).toHaveLength(1);
      expect(problems).toEqual([]);
    },
    UI_TEST_TIMEOUT,
  );

  it(
    "says so when there is nothing to consolidate",
    async () => {
      await server.memory.add("Carol keeps bees", { userId: "carol" });
      await page.goto(`${server.url}/#/dream?user_id=carol`);
      await page.getByRole("button", { name: "Plan a dream" }).click();
      await page.getByText("Nothing to consolidate.").waitFor();
      expect(await page.getByRole("button", { name: "Apply", exact: true }).count()).toBe(0);
      expect(problems).toEqual([]);
    },
    UI_TEST_TIMEOUT,
  );

  it(
    "explains an undo refused because a memory changed since the run, and undoes anyway",
    async () => {
      await server.memory.add("Dan drinks black coffee every morning", { userId: "dan" });
      await server.memory.add("Dan drinks black coffee every single morning", { userId: "dan" });
      await page.goto(`${server.url}/#/dream?user_id=dan`);
      await page.getByRole("button", { name: "Plan a dream" }).click();
      await page.getByRole("heading", { name: "Merges (1)" }).waitFor();
      const answer = page.waitForResponse((response) => response.url().endsWith("/lucid/v1/dream/apply"));
      await page.getByRole("button", { name: "Apply", exact: true }).click();
      const { runId } = (await (await answer).json()) as { runId: string };
      const [kept] = (await server.memory.getAll({ userId: "dan" })).results;
      await server.memory.update(kept?.id ?? "", "Dan drinks tea now");

      await page.getByRole("button", { name: "Undo this run" }).click();
      const refusal = page.getByRole("group", { name: "Undo refused" });
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain("changed since this run");
      await refusal.getByRole("button", { name: "Undo anyway" }).click();
      await page
        .getByRole("status")
        .filter({ hasText: `Run ${runId} undone` })
        .waitFor();
      expect(
        (await server.memory.getAll({ userId: "dan" })).results.map((item) => item.memory).sort(),
      ).toEqual(["Dan drinks black coffee every morning", "Dan drinks black coffee every single morning"]);
      expect(problems).toEqual([]);
    },
    UI_TEST_TIMEOUT,
  );
});
