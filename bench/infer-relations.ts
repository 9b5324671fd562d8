/**
 * How `add` with `infer: true` treats a new fact beside a stored memory, on a corpus written from
 * the rules alone by someone who had not read the code (`test/fixtures/infer-independent/`, never
 * tuned on): for each pair, a fresh store holds the stored memory, a scripted model extracts
 * exactly the new fact, and the outcome is read from the result — not stored again (`NONE`), merged
 * in, superseding, or kept beside it.
 *
 * Two judges for the pairs the rules are unsure of: `rules` (the model answers `unsure`: what the
 * rules decide alone) and `oracle` (the model answers the label: the most a judge can add inside
 * the rules). Reported in aggregate only: reading the individual misses would be tuning on it.
 *
 *   npm run bench:infer [-- --corpus infer-heldout]
 *
 * @module
 */

import { existsSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { openMemory } from "../src/index.js";
import { type LlmCall, type LlmReply, startFakeLlmServer } from "../test/helpers/fake-llm-server.js";
import { renderRunInfo, renderTable, runInfo, writeResults } from "./report.js";

const LABELS = ["restates", "merges", "supersedes", "distinct"] as const;
type Label = (typeof LABELS)[number];
const OUTCOMES = ["not stored", "merged in", "superseded", "kept beside"] as const;
type Outcome = (typeof OUTCOMES)[number];

interface Pair {
  readonly id: string;
  readonly stored: string;
  readonly fact: string;
  readonly expect: Label;
  readonly partial?: boolean;
}

/** `--corpus infer-heldout` for the second corpus (written after the first had been measured). */
const CORPUS = process.argv.includes("--corpus")
  ? (process.argv[process.argv.indexOf("--corpus") + 1] ?? "infer-independent")
  : "infer-independent";
const FILE = fileURLToPath(new URL(`../test/fixtures/${CORPUS}/pairs.json`, import.meta.url));
if (!existsSync(FILE)) {
  console.log(`skipped: no corpus at ${FILE}`);
  process.exit(0);
}
const pairs = (JSON.parse(readFileSync(FILE, "utf8")) as { pairs: Pair[] }).pairs;

/** What the scripted model extracts and how it judges, for the pair being run. */
let current: { pair: Pair; judge: "rules" | "oracle" } | undefined;

const VERDICT: Readonly<Record<Label, string>> = {
  restates: "same",
  merges: "same",
  supersedes: "replaces",
  distinct: "distinct",
};

function answer(call: LlmCall): LlmReply {
  if (current === undefined) return { status: 500, body: "no pair" };
  if (call.system.includes("extract durable memories"))
    return { text: JSON.stringify({ memory: [{ text: current.pair.fact }] }) };
  const items = call.lastUser.split("## Item ").slice(1);
  const verdict = current.judge === "oracle" ? VERDICT[current.pair.expect] : "unsure";
  return {
    text: JSON.stringify({
      decisions: items.map((item) => ({ item: Number.parseInt(item, 10), verdict, reason: current?.judge })),
    }),
  };
}

const server = await startFakeLlmServer({ answer });
const info = runInfo();

async function outcomeOf(pair: Pair, judge: "rules" | "oracle"): Promise<Outcome> {
  const memory = await openMemory({
    path: ":memory:",
    llm: { provider: "openai-compatible", baseURL: server.baseURL, model: "scripted" },
  });
  try {
    await memory.add(pair.stored, { userId: "u" });
    current = { pair, judge };
    const { results } = await memory.add("(the conversation)", { userId: "u", infer: true });
    const [item] = results;
    if (item === undefined) throw new Error(`pair ${pair.id}: nothing extracted`);
    if (item.event === "NONE") return "not stored";
    if (item.event === "UPDATE") return item.relation?.kind === "merges" ? "merged in" : "superseded";
    return "kept beside";
  } finally {
    await memory.close();
  }
}

/** The outcome each label should get; a partial supersede is right kept beside (the rest of the memory stays true). */
function right(pair: Pair, outcome: Outcome): boolean {
  if (pair.expect === "restates") return outcome === "not stored";
  if (pair.expect === "merges") return outcome === "merged in";
  if (pair.expect === "supersedes")
    return pair.partial === true ? outcome === "kept beside" : outcome === "superseded";
  return outcome === "kept beside";
}

/** Outcomes that lose what the user said: a fact not stored that was new, or a true memory overwritten. */
function harmful(pair: Pair, outcome: Outcome): boolean {
  if (outcome === "not stored") return pair.expect !== "restates";
  if (outcome === "superseded") return pair.expect !== "supersedes" || pair.partial === true;
  if (outcome === "merged in") return pair.expect === "distinct" || pair.expect === "supersedes";
  return false;
}

const results: Record<string, unknown> = {};
console.log(renderRunInfo(info));
for (const judge of ["rules", "oracle"] as const) {
  const rows: (string | number)[][] = [];
  let correct = 0;
  let harms = 0;
  const byLabel: Record<string, Record<Outcome, number>> = {};
  for (const pair of pairs) {
    const outcome = await outcomeOf(pair, judge);
    const label = pair.partial === true ? "supersedes (partial)" : pair.expect;
    byLabel[label] ??= Object.fromEntries(OUTCOMES.map((each) => [each, 0])) as Record<Outcome, number>;
    byLabel[label][outcome] += 1;
    if (right(pair, outcome)) correct += 1;
    if (harmful(pair, outcome)) harms += 1;
  }
  for (const [label, counts] of Object.entries(byLabel))
    rows.push([label, ...OUTCOMES.map((each) => counts[each])]);
  console.log(
    `\njudge: ${judge} — ${pairs.length} pairs; right ${correct} (${((100 * correct) / pairs.length).toFixed(1)}%), harmful ${harms}`,
  );
  console.log(renderTable(["expected", ...OUTCOMES], rows));
  results[judge] = { pairs: pairs.length, correct, harmful: harms, byLabel };
}
await server.close();
console.log(`\n${writeResults(`infer-relations-${CORPUS}`, info, results)}`);
