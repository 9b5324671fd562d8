/**
 * The web UI's files: `dist/ui/` (built by `npm run build`, `ui/build.mjs`), served at `/` and
 * `/ui/<file>` before the auth step — they hold no memories, and the page asks for a key when the
 * API wants one. Only the files the build wrote are served (read once, by name: no paths from the
 * request reach the file system), with a policy that lets the page load nothing but its own origin.
 *
 * @module
 */

import { readdirSync, readFileSync } from "node:fs";
import { dirname, extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Hono } from "hono";
import type { RestEnv } from "./rest-env.js";

const TYPES: Readonly<Record<string, string>> = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".svg": "image/svg+xml",
  ".png": "image/png",
};

/** Same origin only: no inline script, no CDN, no frame of the page elsewhere. */
const HEADERS = {
  "Content-Security-Policy":
    "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'",
  "X-Content-Type-Options": "nosniff",
  "Referrer-Policy": "no-referrer",
  "Cache-Control": "no-cache",
};

interface Asset {
  readonly type: string;
  readonly body: Uint8Array;
}

/** The UI's built files, by name. */
export type UiAssets = ReadonlyMap<string, Asset>;

/** `dist/ui` beside the running code: `src/http` under tsx, `dist/http` when built. */
export function defaultUiDir(): string {
  return join(dirname(fileURLToPath(import.meta.url)), "..", "..", "dist", "ui");
}

/** The built files by name; empty when the UI was not built (a source checkout before `npm run build`). */
export function readUiAssets(dir: string): UiAssets {
  const assets = new Map<string, Asset>();
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return assets;
  }
  for (const name of names) {
    const type = TYPES[extname(name)];
    if (type !== undefined) assets.set(name, { type, body: readFileSync(join(dir, name)) });
  }
  return assets;
}

const NOT_BUILT = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Lucid</title></head><body>
<h1>Lucid's web UI is not built</h1>
<p>This server runs from a source checkout. Build the UI with <code>npm run build</code> (or <code>npm run build:ui</code>) and restart <code>lucid serve</code>. The REST API works without it.</p>
</body></html>`;

export function uiRoutes(app: Hono<RestEnv>, assets: UiAssets): void {
  const send = (asset: Asset) =>
    new Response(asset.body, { headers: { ...HEADERS, "Content-Type": asset.type } });
  app.get("/", () => {
    const page = assets.get("index.html");
    if (page !== undefined) return send(page);
    return new Response(NOT_BUILT, {
      status: 503,
      headers: { ...HEADERS, "Content-Type": "text/html; charset=utf-8" },
    });
  });
  app.get("/ui/:file", async (c, next) => {
    const asset = c.req.param("file") === "index.html" ? undefined : assets.get(c.req.param("file"));
    if (asset === undefined) return next();
    return send(asset);
  });
}
