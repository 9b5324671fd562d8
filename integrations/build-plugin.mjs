// Bundles a host plugin (its own code and integrations/shared) into one dependency-free ES module:
// hosts install plugins without running scripts, and load them under their own runtime.
// Usage: node integrations/build-plugin.mjs <openclaw|opencode>

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { build } from "esbuild";

const name = process.argv[2];
if (name !== "openclaw" && name !== "opencode") {
  console.error("usage: node integrations/build-plugin.mjs <openclaw|opencode>");
  process.exit(2);
}
const root = join(dirname(fileURLToPath(import.meta.url)), name);
await build({
  entryPoints: [join(root, "src", "index.ts")],
  outfile: join(root, "dist", "index.js"),
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  logLevel: "warning",
});
