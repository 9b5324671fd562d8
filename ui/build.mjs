/**
 * Builds the web UI into `dist/ui/` at package build time (`npm run build`, `npm run build:ui`):
 * one minified ES module bundled from `ui/src/main.tsx` with Preact in it, the stylesheet and the
 * page. Everything the browser loads comes from the server's own origin, so the UI works offline
 * and under `default-src 'self'`.
 *
 * The files are written to a scratch directory and renamed into place one by one, so a server
 * reading `dist/ui` while a build runs (tests start servers in parallel) reads whole files.
 */
import { copyFile, mkdir, readdir, rename, rm } from "node:fs/promises";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const here = dirname(fileURLToPath(import.meta.url));
const dist = join(here, "..", "dist");
const out = join(dist, "ui");
const scratch = join(dist, `.ui-build-${process.pid}`);

try {
  await mkdir(scratch, { recursive: true });
  await build({
    entryPoints: [join(here, "src", "main.tsx")],
    outfile: join(scratch, "app.js"),
    bundle: true,
    format: "esm",
    minify: true,
    target: "es2022",
    jsx: "automatic",
    jsxImportSource: "preact",
    sourcemap: false,
    legalComments: "none",
    logLevel: "warning",
  });
  await copyFile(join(here, "src", "app.css"), join(scratch, "app.css"));
  await copyFile(join(here, "index.html"), join(scratch, "index.html"));
  await mkdir(out, { recursive: true });
  const built = await readdir(scratch);
  for (const name of built) await rename(join(scratch, name), join(out, name));
  // What an older build left (the server serves every file it finds there).
  for (const name of await readdir(out)) {
    if (!built.includes(name)) await rm(join(out, name), { recursive: true, force: true });
  }
} catch (error) {
  console.error(`ui/build.mjs: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await rm(scratch, { recursive: true, force: true });
}
