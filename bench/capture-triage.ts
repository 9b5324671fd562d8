/**
 * Capture's deterministic triage (no LLM) on a held-out corpus written from the triage rules alone
 * by someone who never saw the code (`test/fixtures/capture-heldout/`, 40 conversations): each
 * conversation goes through `memory.capture` into a fresh store, and what the store then holds is
 * matched against the labelled sentences — every sentence of every user message is labelled keep
 * (durable) or drop (with why), and a few keeps carry a credential that may only be stored redacted.
 *
 * Matching, since a stored memory is the sentence rewritten (fillers trimmed, third person,
 * credentials redacted): both texts become sets of content words (lower case, pronouns and stop
 * words out, a plural or third-person "s" off). A stored memory belongs to the labelled sentence of
 * its conversation that contains most of it, when that is at least half of its words; a sentence
 * counts as stored when the memories that belong to it hold at least half of its words.
 *
 * Reported in aggregate only: reading individual misses would be tuning on it. Measure, never fit.
 *
 *   npm run bench:capture        (or npx tsx bench/capture-triage.ts)
 *
 * @module
 */

import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createLocalEmbedder, openMemory } from "../src/index.js";
import { createTempDir } from "./paths.js";
import { fixed, renderGoals, renderRunInfo, renderTable, runInfo, writeResults } from "./report.js";
import { createSampler } from "./stats.js";

interface Keep {
  readonly text: string;
  readonly category: string;
  readonly secret: boolean;
  readonly secretValue?: string;
}
interface Drop {
  readonly text: string;
  readonly why: string;
}
interface Conversation {
  readonly id: string;
  readonly messages: { role: string; content: string }[];
  readonly keep: Keep[];
  readonly drop: Drop[];
}

const FILE = fileURLToPath(new URL("../test/fixtures/capture-heldout/corpus.json", import.meta.url));
if (!existsSync(FILE)) {
  console.log(`skipped: no corpus at ${FILE}`);
  process.exit(0);
}
const { conversations } = JSON.parse(readFileSync(FILE, "utf8")) as { conversations: Conversation[] };

/** A memory belongs to a sentence holding this share of its words; a sentence is stored at this share. */
const MATCH = 0.5;

// Function words, and the person words the third-person rewrite changes ("I" → "User").
const STOP = new Set(
  (
    "a an the and or but so of to in on at for with by from as into about is am are was were be been " +
    "being it its this that these those there here i me my mine we us our ours you your user users " +
    "s t m re ve ll d do does did has have had not no"
  ).split(" "),
);

function words(text: string): Set<string> {
  const tokens = text
    .toLowerCase()
    .replace(/\[redacted[^\]]*\]/gu, " ")
    .match(/[\p{L}\p{N}]+/gu);
  const kept = (tokens ?? []).filter((token) => !STOP.has(token));
  return new Set(kept.map((token) => (token.length > 3 && token.endsWith("s") ? token.slice(0, -1) : token)));
}

const shared = (a: Set<string>, b: Set<string>) => [...a].filter((word) => b.has(word)).length;

type Label =
  | { kind: "keep"; text: string; words: Set<string>; item: Keep }
  | { kind: "drop"; text: string; words: Set<string>; item: Drop };

/** The labelled sentence a text came from, or undefined when none holds half of it. */
function sourceOf(text: string, labels: readonly Label[]): Label | undefined {
  const own = words(text);
  if (own.size === 0) return undefined;
  let best: { label: Label; share: number } | undefined;
  for (const label of labels) {
    const share = shared(own, label.words) / own.size;
    if (best === undefined || share > best.share) best = { label, share };
  }
  return best !== undefined && best.share >= MATCH ? best.label : undefined;
}

const embedder = createLocalEmbedder();
const temp = createTempDir("capture-triage");
const sampler = createSampler();

function rowOf<T>(table: Record<string, T>, key: string, make: () => T): T {
  const row = table[key] ?? make();
  table[key] = row;
  return row;
}
const info = { ...runInfo(), command: commandLine() };

function commandLine(): string {
  return process.env.npm_lifecycle_event === "bench:capture"
    ? "npm run bench:capture"
    : "npx tsx bench/capture-triage.ts";
}

/** One throw-away capture: loads the sentence model and MiniLM before anything is timed. */
async function warmUp(): Promise<void> {
  const memory = await openMemory({ path: temp.path("warm-up.db"), embedder });
  await memory.capture([{ role: "user", content: "I prefer window seats. Thanks!" }], { userId: "u" });
  await memory.close();
}

const totals = {
  memories: 0,
  fromKeep: 0,
  fromDrop: 0,
  unmatched: 0,
  keepStored: 0,
  dropStored: 0,
  categoryAgrees: 0,
};
const byCategory: Record<string, { labelled: number; stored: number }> = {};
const byWhy: Record<string, { labelled: number; stored: number; reasonAgrees: number; reasonSeen: number }> =
  {};
const secrets = { labelled: 0, keptRedacted: 0, inMemories: 0, inStoreFiles: 0 };
const allSecrets = conversations.flatMap((each) =>
  each.keep.flatMap((item) => (item.secretValue === undefined ? [] : [item.secretValue])),
);

await warmUp();
for (const conversation of conversations) {
  const labels: Label[] = [
    ...conversation.keep.map((item) => ({
      kind: "keep" as const,
      text: item.text,
      words: words(item.text),
      item,
    })),
    ...conversation.drop.map((item) => ({
      kind: "drop" as const,
      text: item.text,
      words: words(item.text),
      item,
    })),
  ];
  const file = temp.path(`${conversation.id}.db`);
  const memory = await openMemory({ path: file, embedder });
  const captured = await sampler.run(() => memory.capture(conversation.messages, { userId: "u" }));
  const stored = (await memory.getAll({ userId: "u" })).results;
  await memory.close();

  // Which labelled sentence each stored memory came from, and how much of each sentence was stored.
  const covered = new Map<Label, Set<string>>();
  for (const item of stored) {
    totals.memories += 1;
    const label = sourceOf(item.memory, labels);
    if (label === undefined) {
      totals.unmatched += 1;
      continue;
    }
    if (label.kind === "keep") {
      totals.fromKeep += 1;
      if (item.metadata?.category === label.item.category) totals.categoryAgrees += 1;
    } else totals.fromDrop += 1;
    const seen = covered.get(label) ?? new Set<string>();
    for (const word of words(item.memory)) if (label.words.has(word)) seen.add(word);
    covered.set(label, seen);
  }
  const wasStored = (label: Label) =>
    (covered.get(label)?.size ?? 0) / Math.max(1, label.words.size) >= MATCH;

  // Why triage dropped what it dropped, matched the same way (the user's sentences only).
  const reasons = new Map<Label, string>();
  for (const drop of captured.dropped) {
    if (drop.reason === "not_user") continue;
    const label = sourceOf(drop.text, labels);
    if (label !== undefined && !reasons.has(label)) reasons.set(label, drop.reason);
  }

  const texts = stored.map((item) => item.memory).join("\n");
  for (const label of labels) {
    const storedNow = wasStored(label);
    if (label.kind === "keep") {
      const row = rowOf(byCategory, label.item.category, () => ({ labelled: 0, stored: 0 }));
      row.labelled += 1;
      if (storedNow) {
        row.stored += 1;
        totals.keepStored += 1;
      }
      if (label.item.secretValue !== undefined) {
        secrets.labelled += 1;
        if (storedNow && !texts.includes(label.item.secretValue)) secrets.keptRedacted += 1;
      }
      continue;
    }
    const row = rowOf(byWhy, label.item.why, () => ({
      labelled: 0,
      stored: 0,
      reasonAgrees: 0,
      reasonSeen: 0,
    }));
    row.labelled += 1;
    if (storedNow) {
      row.stored += 1;
      totals.dropStored += 1;
    }
    const reason = reasons.get(label);
    if (reason !== undefined) {
      row.reasonSeen += 1;
      if (reason === label.item.why) row.reasonAgrees += 1;
    }
  }

  // Any labelled credential, from any conversation, in this store: in a memory, or anywhere in its files.
  const bytes = readdirSync(temp.path("."))
    .filter((name) => name.startsWith(`${conversation.id}.db`))
    .map((name) => readFileSync(temp.path(name)).toString("latin1"))
    .join("\n");
  for (const secret of allSecrets) {
    if (texts.includes(secret)) secrets.inMemories += 1;
    if (bytes.includes(secret)) secrets.inStoreFiles += 1;
  }
}
temp.remove();

const keepLabels = conversations.reduce((sum, each) => sum + each.keep.length, 0);
const dropLabels = conversations.reduce((sum, each) => sum + each.drop.length, 0);
const precision = totals.fromKeep / Math.max(1, totals.memories);
const recall = totals.keepStored / Math.max(1, keepLabels);
const f1 = (2 * precision * recall) / Math.max(Number.EPSILON, precision + recall);
const latency = sampler.summary();
const percent = (part: number, whole: number) =>
  `${part} / ${whole} (${((100 * part) / Math.max(1, whole)).toFixed(1)}%)`;

const overall = renderTable(
  ["measure", "value"],
  [
    ["stored memories", totals.memories],
    ["… from a keep sentence (precision)", percent(totals.fromKeep, totals.memories)],
    ["… from a drop sentence", totals.fromDrop],
    ["… from no labelled sentence", totals.unmatched],
    [
      "stored sentences that are keep sentences",
      percent(totals.keepStored, totals.keepStored + totals.dropStored),
    ],
    ["keep sentences stored (recall)", percent(totals.keepStored, keepLabels)],
    ["F1", fixed(f1, 3).toFixed(3)],
    ["drop sentences not stored", percent(dropLabels - totals.dropStored, dropLabels)],
    [
      "category as labelled (of memories from keep sentences)",
      percent(totals.categoryAgrees, totals.fromKeep),
    ],
    ["secrets: labelled sentences stored, value redacted", percent(secrets.keptRedacted, secrets.labelled)],
    ["secrets in a stored memory, in clear", secrets.inMemories],
    ["secrets anywhere in a store's files, in clear", secrets.inStoreFiles],
    [
      "capture per conversation, wall p50 / p95 (ms)",
      `${latency.wall.p50.toFixed(1)} / ${latency.wall.p95.toFixed(1)}`,
    ],
    [
      "capture per conversation, CPU p50 / p95 (ms)",
      `${latency.cpu.p50.toFixed(1)} / ${latency.cpu.p95.toFixed(1)}`,
    ],
  ],
);
const categories = renderTable(
  ["keep category (label)", "labelled", "stored", "recall"],
  Object.entries(byCategory)
    .sort(([, a], [, b]) => b.labelled - a.labelled)
    .map(([category, row]) => [category, row.labelled, row.stored, fixed(row.stored / row.labelled, 3)]),
);
const whys = renderTable(
  ["drop reason (label)", "labelled", "wrongly stored", "dropped", "Lucid's reason the same"],
  Object.entries(byWhy)
    .sort(([, a], [, b]) => b.labelled - a.labelled)
    .map(([why, row]) => [
      why,
      row.labelled,
      row.stored,
      row.labelled - row.stored,
      `${row.reasonAgrees} / ${row.reasonSeen}`,
    ]),
);

const goals = renderGoals([
  {
    name: "labelled credentials stored in clear",
    target: "0",
    actual: String(secrets.inStoreFiles),
    pass: secrets.inStoreFiles === 0,
  },
]);

console.log(`## Capture triage (held-out corpus)

${renderRunInfo(info)}

\`${info.command}\` (\`bench/capture-triage.ts\`). Data: \`test/fixtures/capture-heldout/corpus.json\`, ${conversations.length} conversations labelled by someone
who never saw the code: ${keepLabels} user sentences to keep, ${dropLabels} to drop, ${secrets.labelled} keeps holding a
credential. Each conversation is captured whole with \`memory.capture(messages, { userId })\`, no LLM
(triage), MiniLM embedding, into a fresh SQLite store; the store's memories are then matched to the
labels. A stored memory belongs to the labelled sentence of its conversation that holds most of
its content words (lower case, pronouns and stop words out, a final "s" off), when that is at
least ${MATCH * 100}% of them; a sentence counts as stored when its memories hold at least ${MATCH * 100}% of its words.
A memory from no labelled sentence counts against precision; precision counts memories (a sentence
cut in two is two), the row under it counts sentences. Secrets: every labelled value, of
every conversation, searched for in each store's memories and in the bytes of its files.

${overall}

${goals}

${categories}

${whys}

"Lucid's reason the same": of the drop sentences whose drop triage reported (matched as above), how
many it gave the label's reason (a "Can you…?" request is Lucid's \`question\`; both are drops).
`);
console.log(
  writeResults("capture-triage", info, {
    totals,
    byCategory,
    byWhy,
    secrets,
    latency,
    keepLabels,
    dropLabels,
  }),
);
