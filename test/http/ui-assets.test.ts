/**
 * The web UI's files as `lucid serve` serves them: the page at `/` and its built files at
 * `/ui/<file>`, with their types and a same-origin policy; only the files the build wrote (no
 * path from the request reaches the disk); a "not built" page when there is no build; and no key
 * needed for any of it.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./rest-server.js";

const INDEX = '<!doctype html><html><head><script src="/ui/app.js"></script></head><body>Lucid</body></html>';
const SCRIPT = 'document.body.dataset.ready = "yes";';
const STYLE = "body { margin: 0; }";
const SECRET = "the operator's private notes";

describe("the web UI's files", () => {
  let root: string;
  let uiDir: string;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), "lucid-http-ui-"));
    uiDir = join(root, "ui");
    mkdirSync(uiDir);
    writeFileSync(join(uiDir, "index.html"), INDEX);
    writeFileSync(join(uiDir, "app.js"), SCRIPT);
    writeFileSync(join(uiDir, "app.css"), STYLE);
    writeFileSync(join(uiDir, "notes.txt"), SECRET);
    // Beside the build, where a path climbing out of it would land.
    writeFileSync(join(root, "keys.json"), JSON.stringify({ secret: SECRET }));
    writeFileSync(join(root, "secret.js"), `// ${SECRET}`);
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
  });

  describe("with a build", () => {
    let server: TestServer;

    beforeAll(async () => {
      server = await startTestServer({ uiDir });
    });
    afterAll(async () => {
      await server.close();
    });

    it("serves the page at / as HTML under a same-origin policy", async () => {
      const page = await server.call("/");
      expect(page.status).toBe(200);
      expect(page.body).toBe(INDEX);
      expect(page.headers.get("content-type")).toMatch(/^text\/html/u);
      expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
      expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
      expect(page.headers.get("x-content-type-options")).toBe("nosniff");
    });

    it("serves the built files at /ui/<file> with their types", async () => {
      const script = await server.call("/ui/app.js");
      expect(script.status).toBe(200);
      expect(script.body).toBe(SCRIPT);
      expect(script.headers.get("content-type")).toMatch(/^text\/javascript/u);
      expect(script.headers.get("content-security-policy")).toContain("default-src 'self'");
      const style = await server.call("/ui/app.css");
      expect(style.status).toBe(200);
      expect(style.body).toBe(STYLE);
      expect(style.headers.get("content-type")).toMatch(/^text\/css/u);
    });

    it.each([
      "/ui/missing.js",
      "/ui/notes.txt",
      "/ui/index.html",
      "/ui/..%2Fkeys.json",
      "/ui/..%2Fsecret.js",
      "/ui/%2E%2E%2Fsecret.js",
      "/ui/..%5Csecret.js",
      "/ui/%2e%2e/secret.js",
      "/ui/app.js%00.css",
      "/ui/",
    ])("answers %s with a 404 in JSON, serving nothing from the disk", async (path) => {
      const response = await server.call(path);
      expect(response.status).toBe(404);
      expect(response.headers.get("content-type")).toMatch(/^application\/json/u);
      expect(response.body).toMatchObject({ code: "NOT_FOUND" });
      expect(JSON.stringify(response.body)).not.toContain(SECRET);
    });
  });

  it("answers / with 503 and a page saying to run `npm run build` when there is no build", async () => {
    const server = await startTestServer({ uiDir: join(root, "not-built") });
    try {
      const page = await server.call("/");
      expect(page.status).toBe(503);
      expect(page.headers.get("content-type")).toMatch(/^text\/html/u);
      expect(page.body).toContain("npm run build");
      expect((await server.call("/ui/app.js")).status).toBe(404);
      // The API works without the page.
      expect((await server.call("/lucid/v1/info")).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("serves the page and its files without a key on a server that wants keys", async () => {
    const server = await startTestServer({ keys: [{ user_id: "alice" }], uiDir });
    try {
      const page = await server.call("/");
      expect(page.status).toBe(200);
      expect(page.body).toBe(INDEX);
      expect((await server.call("/ui/app.js")).status).toBe(200);
      expect((await server.call("/lucid/v1/info")).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});
