/**
 * `npm run bench [-- <locomo|scale|all>] [--quick] [--sizes 1000,10000] [--tune]`
 *
 * - `locomo`: LoCoMo evidence recall and search latency (needs ../shared/data/locomo-dev.json or LUCID_LOCOMO).
 * - `scale`: engine-only search latency at 1k/10k/100k synthetic memories, and add throughput.
 * - `all` (default): both.
 *
 * Tables go to stdout, progress to stderr, and each benchmark's JSON to `.bench-data/results-<name>.json`.
 * Goals are printed as PASS/MISS; a miss never fails the process.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { runLocomo } from "./locomo.js";
import { runScale } from "./scale.js";

const BENCHES = ["locomo", "scale", "all"] as const;
type Bench = (typeof BENCHES)[number];

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    quick: { type: "boolean", default: false },
    sizes: { type: "string" },
    tune: { type: "boolean", default: false },
    help: { type: "boolean", short: "h", default: false },
  },
});

const usage = "usage: npm run bench -- [locomo|scale|all] [--quick] [--sizes 1000,10000,100000] [--tune]";

const bench = (positionals[0] ?? "all") as Bench;
if (values.help || !BENCHES.includes(bench) || positionals.length > 1) {
  console.log(usage);
  process.exit(values.help ? 0 : 1);
}

const sizes = values.sizes?.split(",").map((size) => Number(size.trim()));
if (sizes?.some((size) => !Number.isInteger(size) || size < 100)) {
  console.error(`--sizes takes integers of at least 100, comma-separated; got ${values.sizes}.\n${usage}`);
  process.exit(1);
}

if (bench === "locomo" || bench === "all") {
  await runLocomo({ quick: values.quick, tune: values.tune });
}
if (bench === "scale" || bench === "all") {
  await runScale({ quick: values.quick, ...(sizes === undefined ? {} : { sizes }) });
}
