/**
 * The web UI on a server with API keys: the page loads without one (its files hold no memories),
 * the API answers 401, the page asks for a key, and with it works inside the key's scope — shown,
 * and fixed.
 */
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

describeWithChromium("web UI: a server with API keys", () => {
  let server: TestServer & { keys: string[] };
  let ui: UiBrowser;

  beforeAll(async () => {
    await buildUi();
    server = await startTestServer({ keys: [{ user_id: "alice" }] });
    await server.memory.add("Alice drinks green tea every morning", { userId: "alice" });
    await server.memory.add("Bob's editor is Emacs", { userId: "bob" });
    ui = await launchUiBrowser();
  }, UI_TEST_TIMEOUT);
  afterAll(async () => {
    await ui?.close();
    await server?.close();
  });

  it(
    "asks for the key after a 401, then works in the key's scope",
    async () => {
      const page = await ui.page();
      const problems = watchPage(page, server.url);
      // A link naming a scope, opened before the tab has a key.
      await page.goto(`${server.url}/#/memories?user_id=alice`);
      const key = page.getByLabel("API key");
      await key.waitFor();
      expect(await page.getByRole("alert").textContent()).toMatch(/key/i);
      // The key comes first: no scope fields to type it into by mistake, the cursor in its field,
      // and no "0 memories" where the memories could not be read.
      expect(await page.getByLabel("Known scopes").count()).toBe(0);
      expect(await key.evaluate((element) => element.matches(":focus"))).toBe(true);
      await page.getByText("The memories could not be loaded").waitFor();
      expect(await page.getByRole("main").textContent()).not.toMatch(/\b0 memories/);

      await key.fill("lucid_not-a-key");
      await page.getByRole("button", { name: "Use key" }).click();
      await page.getByText("The server refused the API key").waitFor();

      await page.getByLabel("API key").fill(server.keys[0] as string);
      await page.getByRole("button", { name: "Use key" }).click();
      await page.getByText("(fixed by your API key)").waitFor();
      expect(await page.getByRole("banner").textContent()).toContain("user_id=alice");
      expect(await page.getByLabel("API key").count()).toBe(0);
      expect(await page.getByLabel("user_id").count()).toBe(0);
      const list = page.getByRole("list", { name: "Memories" });
      await list.getByText("Alice drinks green tea every morning").waitFor();
      expect(await list.textContent()).not.toContain("Emacs");
      expect(await page.getByRole("alert").textContent()).toBe("");

      // Kept for the tab: a reload does not ask again.
      expect(await page.evaluate("sessionStorage.getItem('lucid.apiKey')")).toBe(server.keys[0]);
      await page.reload();
      await list.getByText("Alice drinks green tea every morning").waitFor();
      expect(await page.getByLabel("API key").count()).toBe(0);
      expect(problems).toEqual([]);
      await page.close();
    },
    UI_TEST_TIMEOUT,
  );
});
