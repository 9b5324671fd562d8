// Bundles each host plugin (its own code and integrations/shared) into one dependency-free ES
// module: hosts install plugins without running scripts, and load them under their own runtime.
// Usage: node integrations/build-plugin.mjs [openclaw] [opencode]   (no names: every plugin)

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const PLUGINS = ["openclaw", "opencode"];
const names = process.argv.length > 2 ? process.argv.slice(2) : PLUGINS;
const unknown = names.filter((name) => !PLUGINS.includes(name));
if (unknown.length > 0) {
  console.error(
    `unknown plugin ${unknown.join(", ")}; usage: node integrations/build-plugin.mjs [${PLUGINS.join("] [")}]`,
  );
  process.exit(2);
}
const here = dirname(fileURLToPath(import.meta.url));
for (const name of names) {
  const root = join(here, name);
  await build({
    entryPoints: [join(root, "src", "index.ts")],
    outfile: join(root, "dist", "index.js"),
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node20",
    logLevel: "warning",
  });
}
