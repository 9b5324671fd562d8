/**
 * `npm run bench:loop [-- --runs 9]`: the CLI's cold start, per command, as `/usr/bin/time -v` reports
 * it — CPU time (user + system) and peak memory of `node bin/lucid.js <command>` in a fresh process,
 * the median of `--runs` runs — against a home holding a few hundred memories. Run `npm run build`
 * first (it times the built binary, as a user runs it). The suite's own wall time is measured with
 * `/usr/bin/time -v npm test` (see BENCHMARKS.md, "Developer loop").
 *
 * @module
 */

import { execFileSync, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createTempDir, REPO_ROOT } from "./paths.js";

const { values } = parseArgs({ options: { runs: { type: "string", default: "9" } } });
const RUNS = Number(values.runs);
const BIN = join(REPO_ROOT, "bin", "lucid.js");
const TIME = "/usr/bin/time";
/** The bar for commands that need no model. */
const TARGET_CPU_MS = 150;

if (!existsSync(join(REPO_ROOT, "dist", "cli", "main.js"))) {
  console.error("Build first: npm run build");
  process.exit(1);
}
if (!existsSync(TIME)) {
  console.error(`${TIME} is missing (Debian package "time").`);
  process.exit(1);
}

const temp = createTempDir("loop");
const home = temp.path("home");
mkdirSync(home, { recursive: true });
const env = { ...process.env, LUCID_HOME: home, NO_COLOR: "1" };
const lucid = (args: readonly string[]) =>
  execFileSync(process.execPath, [BIN, ...args], {
    env,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });

// A home with something in it: 300 memories of two users, imported once (this embeds; the timed
// commands below do not).
const records = Array.from({ length: 300 }, (_, index) =>
  JSON.stringify({
    text: `Fact ${index}: the user keeps notebook ${index} on shelf ${index % 7}`,
    user_id: index % 2 ? "alice" : "bob",
  }),
);
writeFileSync(join(home, "seed.jsonl"), `${records.join("\n")}\n`);
lucid(["import", join(home, "seed.jsonl")]);
const listed = JSON.parse(lucid(["list", "--user", "alice", "--json"])) as { results: { id: string }[] };
const id = listed.results[0]?.id ?? "";

const COMMANDS: readonly (readonly string[])[] = [
  ["--version"],
  ["--help"],
  ["get", id],
  ["list", "--user", "alice"],
  ["history", id],
  ["status"],
  ["config"],
  ["search", "notebook on shelf 3", "--user", "alice"],
];

interface Sample {
  readonly cpuMs: number;
  readonly rssMb: number;
}

function measure(args: readonly string[]): Sample {
  const result = spawnSync(TIME, ["-v", process.execPath, BIN, ...args], { env, encoding: "utf8" });
  if (result.status !== 0) throw new Error(`lucid ${args.join(" ")} failed:\n${result.stderr}`);
  const field = (name: string) =>
    Number(new RegExp(`${name}: ([0-9.]+)`).exec(result.stderr)?.[1] ?? Number.NaN);
  return {
    cpuMs: (field("User time \\(seconds\\)") + field("System time \\(seconds\\)")) * 1000,
    rssMb: field("Maximum resident set size \\(kbytes\\)") / 1024,
  };
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

console.log(`| command | CPU ms (median of ${RUNS}) | peak RSS MB | ≤ ${TARGET_CPU_MS} ms |`);
console.log("| --- | --- | --- | --- |");
for (const args of COMMANDS) {
  const samples = Array.from({ length: RUNS }, () => measure(args));
  const cpu = median(samples.map((sample) => sample.cpuMs));
  const rss = median(samples.map((sample) => sample.rssMb));
  const name = `lucid ${args.map((arg) => (arg === id ? "<id>" : arg)).join(" ")}`;
  const embeds = args[0] === "search";
  console.log(
    `| \`${name}\` | ${cpu.toFixed(0)} | ${rss.toFixed(0)} | ${embeds ? "— (loads the model)" : cpu <= TARGET_CPU_MS ? "pass" : "MISS"} |`,
  );
}
temp.remove();
