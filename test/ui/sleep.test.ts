/**
 * The Sleep view of a server with a workspace: the status with what would promote, a candidate
 * explained, the MEMORY.md diff a promotion would write (lines marked + and -), the promotion
 * itself (MEMORY.md on disk has the line), and rolling it back (MEMORY.md byte for byte again).
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
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
import { KYOTO_MEMORY_MD, writeKyotoWorkspace } from "./kyoto-workspace.js";

describeWithChromium("web UI: sleep", () => {
  let server: TestServer;
  let ui: UiBrowser;
  let dir: string;
  let note: string;

  beforeAll(async () => {
    await buildUi();
    const kyoto = writeKyotoWorkspace("lucid-ui-workspace-");
    ({ dir, note } = kyoto);
    writeFileSync(
      join(dir, "DREAMS.md"),
      "# Dream Diary\n\n<!-- openclaw:dreaming:diary:start -->\n*December 1, 2026*\n\nThe notes kept coming back to Kyoto.\n\n<!-- openclaw:dreaming:diary:end -->\n",
    );
    server = await startTestServer({ workspace: dir });
    await kyoto.recall(server.memory.workspace(dir));
    ui = await launchUiBrowser();
  }, UI_TEST_TIMEOUT);
  afterAll(async () => {
    await ui?.close();
    await server?.close();
    if (dir !== undefined) rmSync(dir, { recursive: true, force: true });
  });

  it(
    "shows what would promote, explains it, previews the MEMORY.md diff, promotes and rolls back",
    async () => {
      const page = await ui.page();
      const problems = watchPage(page, server.url);
      await page.goto(`${server.url}/`);
      await page.getByRole("tab", { name: "Sleep" }).click();
      expect(new URL(page.url()).hash).toBe("#/sleep");
      await page.getByRole("heading", { name: "What would promote (1)" }).waitFor();
      const address = `${note}#L4-L4`;
      const row = page.getByRole("row").filter({ hasText: address });
      expect(await row.textContent()).toContain("book the ryokan in Kyoto by March");
      expect(await page.getByRole("main").textContent()).toMatch(/MEMORY\.md\d+ of 10,000 characters/);

      await row.getByRole("button", { name: `Explain ${address}` }).click();
      const why = page.getByRole("heading", { name: /^Why .*: promotes: rank 1 of 1$/ });
      await why.waitFor();
      expect(await page.getByRole("table").filter({ hasText: "Gates" }).textContent()).toContain("passes");

      await page.getByRole("button", { name: "Preview promotion" }).click();
      await page.getByRole("heading", { name: "Promotion preview" }).waitFor();
      const diff = page.getByRole("figure").filter({ hasText: "MEMORY.md:" });
      expect(await diff.locator("figcaption").textContent()).toMatch(
        /MEMORY\.md: \d+ lines? added, 0 removed/,
      );
      const added = await diff.locator("ins.line.added").allTextContents();
      expect(
        added.some((line) => line.startsWith("+ ") && line.includes("book the ryokan in Kyoto by March")),
      ).toBe(true);
      expect(await diff.locator(".line.same").first().textContent()).toBe("  # Long-Term Memory\n");
      expect(readFileSync(join(dir, "MEMORY.md"), "utf8")).toBe(KYOTO_MEMORY_MD);
      await screenshot(page, "sleep-preview");

      await page.getByRole("button", { name: "Promote", exact: true }).click();
      await page.getByRole("heading", { name: "Promoted", exact: true }).waitFor();
      expect(readFileSync(join(dir, "MEMORY.md"), "utf8")).toContain("book the ryokan in Kyoto by March");
      await page.getByRole("heading", { name: "What would promote (0)" }).waitFor();
      // Nothing left to promote: the button says so by being off.
      expect(await page.getByRole("button", { name: "Promote", exact: true }).isDisabled()).toBe(true);
      await page.getByRole("heading", { name: "Dream Diary" }).waitFor();
      // The diary as a person reads it: its words, not the markers tools find it by.
      const diary = (await page.locator("pre.diary").textContent()) ?? "";
      expect(diary).toContain("The notes kept coming back to Kyoto.");
      expect(diary).not.toContain("<!--");
      await screenshot(page, "sleep-promoted");

      // A hand edit since the run: the rollback asks first, is refused, then is done anyway.
      writeFileSync(join(dir, "MEMORY.md"), `${readFileSync(join(dir, "MEMORY.md"), "utf8")}- a hand edit\n`);
      await page.getByRole("button", { name: "Roll back last run" }).click();
      const question = page.getByRole("group", { name: "Roll back the last promotion?" });
      expect(
        await question.getByRole("button", { name: "Cancel" }).evaluate((b) => b.matches(":focus")),
      ).toBe(true);
      await question.getByRole("button", { name: "Roll back", exact: true }).click();
      const refused = page.getByRole("group", { name: "Roll back refused" });
      await refused.waitFor();
      expect(await refused.textContent()).toContain("1 line added, 0 lines removed");
      expect(readFileSync(join(dir, "MEMORY.md"), "utf8")).toContain("- a hand edit");
      await refused.getByRole("button", { name: "Roll back anyway" }).click();
      await page.getByRole("status").filter({ hasText: "rolled back" }).waitFor();
      expect(readFileSync(join(dir, "MEMORY.md"), "utf8")).toBe(KYOTO_MEMORY_MD);
      expect(problems).toEqual([]);
      await page.close();
    },
    UI_TEST_TIMEOUT,
  );
});
