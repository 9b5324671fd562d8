/**
 * `lucid serve` under load on loopback: the built binary, a home of 1,000 memories embedded by the
 * local model, one API key, and autocannon driving `POST /v3/memories/search/` and then
 * `POST /v3/memories/add/` for a bounded time each (default 30 s; `--duration S`,
 * `--connections N`), every request a different query or memory. The per-key rate limit is off:
 * this measures the server, not the limiter. Every non-2xx answer and every socket error counts
 * as an error; the goal is zero. Run `npm run build` first.
 *
 * @module
 */

import { execFileSync, spawn } from "node:child_process";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import autocannon from "autocannon";
import { createTempDir, REPO_ROOT } from "./paths.js";
import { renderRunInfo, renderTable, runInfo } from "./report.js";

const BIN = join(REPO_ROOT, "bin", "lucid.js");
const SEEDED = 1_000;
const TOPICS = ["coffee", "deploys", "Lisbon", "tabs", "Postgres", "lunch", "Rust", "the dentist", "Sam"];

const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const at = args.indexOf(`--${name}`);
  const value = at === -1 ? fallback : Number(args[at + 1]);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
  return value;
};
const duration = option("duration", 30);
const connections = option("connections", 10);

if (!existsSync(join(REPO_ROOT, "dist", "cli", "main.js"))) {
  console.error("bench:serve needs the built CLI: run `npm run build` first.");
  process.exit(2);
}

const info = runInfo();
const temp = createTempDir("lucid-bench-serve-");
const home = temp.path("home");
const lucid = (...argv: string[]) =>
  execFileSync(process.execPath, [BIN, ...argv, "--home", home], { encoding: "utf8" });

const seed = Array.from({ length: SEEDED }, (_, index) =>
  JSON.stringify({
    memory: `Note ${index}: the user mentioned ${TOPICS[index % TOPICS.length]} on day ${index % 365}.`,
    user_id: "load",
  }),
).join("\n");
writeFileSync(temp.path("seed.jsonl"), `${seed}\n`);
lucid("import", temp.path("seed.jsonl"));
const key = (JSON.parse(lucid("keys", "create", "--user", "load", "--json")) as { key: string }).key;

const server = spawn(process.execPath, [BIN, "serve", "--port", "0", "--rate-limit", "0", "--home", home], {
  // It says where it listens on stderr (stdout is for data).
  stdio: ["ignore", "inherit", "pipe"],
});
const url = await new Promise<string>((resolve, reject) => {
  let out = "";
  server.stderr.setEncoding("utf8");
  server.stderr.on("data", (chunk: string) => {
    out += chunk;
    const found = /listening on (http:\/\/\S+?) /u.exec(out);
    if (found?.[1] !== undefined) resolve(found[1]);
  });
  server.on("exit", (code) => reject(new Error(`lucid serve exited (${code}) before listening: ${out}`)));
});

const headers = { authorization: `Token ${key}`, "content-type": "application/json" };
// The first search loads the sentence model in the server: not part of what is measured.
await fetch(`${url}/v3/memories/search/`, {
  method: "POST",
  headers,
  body: JSON.stringify({ query: "warm up", filters: { user_id: "load" } }),
});

let counter = 0;
const next = () => counter++;
const run = (title: string, path: string, body: () => unknown) =>
  autocannon({
    url: `${url}${path}`,
    title,
    duration,
    connections,
    method: "POST",
    headers,
    requests: [{ setupRequest: (request) => ({ ...request, body: JSON.stringify(body()) }) }],
  });

const search = await run("search", "/v3/memories/search/", () => {
  const n = next();
  return {
    query: `what did I say about ${TOPICS[n % TOPICS.length]} on day ${n % 365}?`,
    filters: { user_id: "load" },
    top_k: 10,
  };
});
const add = await run("add", "/v3/memories/add/", () => {
  const n = next();
  return {
    messages: [
      { role: "user", content: `Load memory ${n}: the user likes ${TOPICS[n % TOPICS.length]} number ${n}.` },
    ],
    infer: false,
  };
});

server.kill("SIGTERM");
await new Promise((resolve) => server.once("exit", resolve));
temp.remove();

const row = (name: string, result: autocannon.Result) => [
  name,
  result.requests.total,
  Math.round(result.requests.average),
  result.latency.p50,
  result.latency.p99,
  result.latency.max,
  result.errors + result.timeouts + result.non2xx,
];
console.log("## REST API under load (`lucid serve`, loopback)\n");
console.log(renderRunInfo(info));
console.log(
  `\n${SEEDED} memories (MiniLM), one key, ${connections} connections, ${duration} s a route, every request different; rate limit off.\n`,
);
console.log(
  renderTable(
    ["route", "requests", "req/s", "p50 ms", "p99 ms", "max ms", "errors"],
    [row("POST /v3/memories/search/", search), row("POST /v3/memories/add/ (infer: false)", add)],
  ),
);
const errors = [search, add].reduce(
  (sum, result) => sum + result.errors + result.timeouts + result.non2xx,
  0,
);
console.log(`\nerrors: ${errors} (goal 0: ${errors === 0 ? "pass" : "MISS"})`);
process.exitCode = errors === 0 ? 0 : 1;
