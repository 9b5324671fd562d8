/**
 * The Memories view in a browser: searching with each score explained; editing, pinning, reading
 * the history of and deleting one memory (each checked in the store); and the keyboard alone —
 * the arrow keys across the tabs (the hash follows, and Back goes back), `/` to search, j/k and
 * Enter through the list.
 */
import type { Locator, Page } from "playwright-core";
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from "vitest";
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

const isFocused = (locator: Locator) => locator.evaluate((element) => element.matches(":focus"));

describeWithChromium("web UI: memories", () => {
  let server: TestServer;
  let ui: UiBrowser;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    await buildUi();
    server = await startTestServer();
    await server.memory.add("Alice drinks green tea every morning", alice);
    await server.memory.add("Alice is allergic to peanuts", alice);
    await server.memory.add("Alice plays the cello on Sundays", alice);
    await server.memory.add("Bob's editor is Emacs", { userId: "bob" });
    ui = await launchUiBrowser();
  }, UI_TEST_TIMEOUT);
  // A tab per test: a hash-only goto would keep the last test's state.
  beforeEach(async () => {
    page = await ui.page();
    problems = watchPage(page, server.url);
  });
  afterEach(async () => {
    await page?.close();
  });
  afterAll(async () => {
    await ui?.close();
    await server?.close();
  });

  it(
    "searches the scope and explains a score",
    async () => {
      await page.goto(`${server.url}/#/memories?user_id=alice`);
      const all = page.getByRole("list", { name: "Memories" });
      await expect.poll(() => all.getByRole("listitem").count()).toBe(3);

      await page.getByLabel("Search memories").fill("green tea");
      await page.getByLabel("Search memories").press("Enter");
      const results = page.getByRole("list", { name: "Search results" });
      const hit = results.getByRole("listitem").filter({ hasText: "Alice drinks green tea every morning" });
      await hit.waitFor();
      expect(await hit.textContent()).toMatch(/score 0\.\d\d/);
      expect(await results.textContent()).not.toContain("Emacs");

      await hit.getByText("Why this score").click();
      const table = hit.getByRole("table");
      await table.waitFor();
      const rows = await table.textContent();
      for (const signal of ["Meaning (semantic similarity)", "Words (BM25)", "Threshold", "Found by"]) {
        expect(rows).toContain(signal);
      }
      await screenshot(page, "memories-explanation");

      await page.getByRole("button", { name: "Show all" }).click();
      await expect.poll(() => all.getByRole("listitem").count()).toBe(3);
      expect(problems).toEqual([]);
    },
    UI_TEST_TIMEOUT,
  );

  it(
    "pages through a long list",
    async () => {
      for (let index = 1; index <= 25; index++) {
        await server.memory.add(`Paged fact number ${index} about the billing-api`, { userId: "pager" });
      }
      await page.goto(`${server.url}/#/memories?user_id=pager`);
      const list = page.getByRole("list", { name: "Memories" });
      await page.getByText("Page 1 of 2").waitFor();
      await expect.poll(() => list.getByRole("listitem").count()).toBe(20);
      await page.getByRole("button", { name: "Next page" }).click();
      await page.getByText("Page 2 of 2").waitFor();
      await expect.poll(() => list.getByRole("listitem").count()).toBe(5);
      expect(await page.getByRole("button", { name: "Next page" }).isDisabled()).toBe(true);
      expect(problems).toEqual([]);
    },
    UI_TEST_TIMEOUT,
  );

  it(
    "edits (Enter saves, Escape cancels), pins, shows the history of and deletes one memory",
    async () => {
      await page.goto(`${server.url}/#/memories?user_id=alice`);
      const item = page.getByRole("listitem").filter({ hasText: "Alice is allergic to peanuts" });
      await item.getByRole("button", { name: /Alice is allergic to peanuts/ }).click();
      const id = (await item.locator("dd code").first().textContent()) ?? "";
      expect(id).toMatch(/^[0-9a-f-]{36}$/);

      await item.getByRole("button", { name: "Edit" }).click();
      const field = item.getByLabel("Memory text");
      expect(await isFocused(field)).toBe(true);
      await field.fill("Alice is allergic to peanuts and cashews");
      await field.press("Enter");
      await item.getByRole("button", { name: /and cashews/ }).waitFor();
      expect((await server.memory.get(id))?.memory).toBe("Alice is allergic to peanuts and cashews");

      await item.getByRole("button", { name: "Edit" }).click();
      await item.getByLabel("Memory text").fill("something else entirely");
      await item.getByLabel("Memory text").press("Escape");
      expect(await item.getByLabel("Memory text").count()).toBe(0);
      expect((await server.memory.get(id))?.memory).toBe("Alice is allergic to peanuts and cashews");

      await item.getByRole("button", { name: "Pin", exact: true }).click();
      await item.getByRole("button", { name: "Unpin" }).waitFor();
      expect((await server.memory.get(id))?.metadata.pinned).toBe(true);
      expect(await item.textContent()).toContain("pinned");

      await item.getByRole("button", { name: "History" }).click();
      const history = item.getByRole("list", { name: "History" });
      await expect.poll(() => history.getByRole("listitem").count()).toBeGreaterThanOrEqual(2);
      const update = history.getByRole("listitem").filter({ hasText: "UPDATE" }).first();
      expect(await update.locator("del").textContent()).toContain("Alice is allergic to peanuts");
      expect(await update.locator("ins").textContent()).toContain("Alice is allergic to peanuts and cashews");
      // The pin kept the text: its entry says what it changed, with no text struck through.
      const pinned = history.getByRole("listitem").filter({ hasText: "changed metadata.pinned" });
      await pinned.waitFor();
      expect(await pinned.locator("del").count()).toBe(0);

      await item.getByRole("button", { name: "Unpin" }).click();
      await item.getByRole("button", { name: "Pin", exact: true }).waitFor();
      expect((await server.memory.get(id))?.metadata.pinned).toBeUndefined();

      await item.getByRole("button", { name: "Delete" }).click();
      const confirm = item.getByRole("group", { name: "Delete this memory?" });
      // The question takes the cursor to its harmless answer.
      expect(await isFocused(confirm.getByRole("button", { name: "Cancel" }))).toBe(true);
      await confirm.getByRole("button", { name: "Cancel" }).click();
      expect(await server.memory.get(id)).not.toBeNull();
      await item.getByRole("button", { name: "Delete" }).click();
      await confirm.getByRole("button", { name: "Confirm delete" }).click();
      await expect.poll(() => item.count()).toBe(0);
      // The cursor is not lost with the memory: it is on another one.
      await expect
        .poll(() => page.evaluate("document.activeElement?.hasAttribute('data-memory-toggle') ?? false"))
        .toBe(true);
      expect(await server.memory.get(id)).toBeNull();
      expect(problems).toEqual([]);
    },
    UI_TEST_TIMEOUT,
  );

  it(
    "moves through tabs with the arrow keys, searches with /, walks the list with j/k and opens with Enter",
    async () => {
      await page.goto(`${server.url}/#/memories?user_id=alice`);
      const focusedTab = () => page.locator(":focus").textContent();
      await page.getByRole("tab", { name: "Memories" }).focus();
      await page.keyboard.press("ArrowRight");
      expect(await focusedTab()).toBe("Dream");
      expect(await page.getByRole("tab", { name: "Dream" }).getAttribute("aria-selected")).toBe("true");
      await page.getByRole("heading", { name: "Dream", level: 2 }).waitFor();
      expect(new URL(page.url()).hash).toBe("#/dream?user_id=alice");
      await page.keyboard.press("ArrowRight");
      expect(await focusedTab()).toBe("Runs");
      expect(new URL(page.url()).hash).toBe("#/runs?user_id=alice");
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("ArrowLeft");
      expect(await focusedTab()).toBe("Memories");
      // Left of the first tab is the last.
      await page.keyboard.press("ArrowLeft");
      expect(await focusedTab()).toBe("Scan");

      // Back walks the views; a reload keeps the one shown.
      await page.goBack();
      await page.getByRole("heading", { name: "Memories", level: 2 }).waitFor();
      await page.reload();
      await page.getByRole("heading", { name: "Memories", level: 2 }).waitFor();
      expect(await page.getByRole("tab", { name: "Memories" }).getAttribute("aria-selected")).toBe("true");

      const list = page.getByRole("list", { name: "Memories" });
      const stored = (await server.memory.getAll(alice)).results.length;
      await expect.poll(() => list.getByRole("listitem").count()).toBe(stored);
      // After the reload the focus is on the page itself: `/` is not typed into a field.
      await page.keyboard.press("/");
      expect(await isFocused(page.getByLabel("Search memories"))).toBe(true);
      await page.keyboard.type("cello");
      await page.keyboard.press("Enter");
      await page
        .getByRole("list", { name: "Search results" })
        .getByText("Alice plays the cello on Sundays")
        .waitFor();
      await page.keyboard.press("Escape");

      await page.getByRole("button", { name: "Show all" }).click();
      await expect.poll(() => list.getByRole("listitem").count()).toBe(stored);
      const toggles = list.locator("[data-memory-toggle]");
      const focused = () => page.locator(":focus").getAttribute("aria-expanded");
      await page.keyboard.press("j");
      expect(await isFocused(toggles.nth(0))).toBe(true);
      await page.keyboard.press("j");
      expect(await isFocused(toggles.nth(1))).toBe(true);
      await page.keyboard.press("k");
      expect(await isFocused(toggles.nth(0))).toBe(true);
      await page.keyboard.press("ArrowDown");
      expect(await isFocused(toggles.nth(1))).toBe(true);
      expect(await focused()).toBe("false");
      await page.keyboard.press("Enter");
      expect(await focused()).toBe("true");
      await list.getByRole("button", { name: "Edit" }).waitFor();
      expect(problems).toEqual([]);
    },
    UI_TEST_TIMEOUT,
  );
});
