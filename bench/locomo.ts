/**
 * LoCoMo evidence recall: every turn of every conversation becomes a memory (one scope per
 * conversation), added as an agent would add a conversation — one `add(messages)` per session,
 * each message named by its speaker, at the session's date — every question of categories 1–4 is
 * searched in each mode, and recall@k counts the question's evidence turns among the results.
 * Latency is timed twice: engine-only (query vectors precomputed) and end to end (the local model
 * embeds each query). `--tune` adds the cross-validated weight search (`retrieval-tuning.ts`).
 *
 * @module
 */

import { cosine } from "../src/embed/cosine.js";
import { createLocalEmbedder, type Memory, openMemory, SEARCH_MODES, type SearchMode } from "../src/index.js";
import { namesIn, withoutNames } from "../src/search/query-names.js";
import { extractEntities } from "../src/text/entities.js";
import {
  CATEGORY_NAMES,
  type LocomoData,
  type LocomoQuestion,
  type LocomoTurn,
  loadLocomo,
} from "./locomo-data.js";
import { createTempDir, locomoPath } from "./paths.js";
import { precomputedLike } from "./precomputed-embedder.js";
import { type Ranking, RECALL_KS, type RecallRow, recallTable } from "./recall.js";
import {
  fixed,
  type Goal,
  renderGoals,
  renderRunInfo,
  renderTable,
  runInfo,
  writeResults,
} from "./report.js";
import { collectSignals, renderTuningReport, runTuning, type TuningReport } from "./retrieval-tuning.js";
import { createSampler, type LatencySummary } from "./stats.js";

export interface LocomoOptions {
  /** Only the first conversation. */
  readonly quick: boolean;
  readonly tune: boolean;
}

/** As the research harness: threshold 0 so every candidate counts, top 20 so recall@20 is defined. */
const TOP_K = 20;
const WARM_UP = 20;

interface ModeRun {
  readonly rankings: Ranking[];
  readonly latency: LatencySummary;
  readonly cpu: LatencySummary;
}

const progress = (message: string) => process.stderr.write(`locomo: ${message}\n`);

export async function runLocomo(options: LocomoOptions): Promise<void> {
  const path = locomoPath();
  const data = loadLocomo(path, options.quick ? { conversations: 1 } : {});
  if (data === null) {
    console.log(`LoCoMo benchmark skipped: no dataset at ${path} (set LUCID_LOCOMO to its path).`);
    return;
  }
  const info = runInfo();
  const local = createLocalEmbedder();
  // The questions as the dense signal reads them: without the names of the conversation's speakers.
  const queryTexts = data.questions.flatMap((q) => [q.question, withoutSpeakers(q, data)]);
  const texts = [...data.turns.map((turn) => turn.text), ...queryTexts];
  progress(
    `${data.turns.length} turns, ${data.questions.length} questions; vectors for ${texts.length} texts`,
  );
  const { embedder: precomputed, cache } = await precomputedLike(local, {
    name: "locomo",
    texts,
    onProgress: (done, total) => progress(`embedded ${done}/${total}`),
  });

  const temp = createTempDir("locomo");
  try {
    const dbPath = temp.path("locomo.db");
    const engine = await openMemory({ path: dbPath, embedder: precomputed });
    const ingest = await ingestSessions(engine, data);
    const engineRuns = await searchAllModes(engine, data.questions, ingest.diaIdOf, "engine-only");
    const tuning = options.tune
      ? runTuning(await collectSignals(engine, data, ingest.diaIdOf, progress), progress)
      : undefined;
    await engine.close();

    // Same file, same embedder stamp: the live model reads the store the precomputed one wrote.
    const live = await openMemory({ path: dbPath, embedder: local });
    const liveRuns = await searchAllModes(live, data.questions, ingest.diaIdOf, "end-to-end");
    await live.close();

    const names = nameStripping(data, cache.vectors);
    const report = buildReport({ data, cache, ingest, engineRuns, liveRuns, tuning, names });
    console.log(`\n## LoCoMo evidence recall\n${renderRunInfo(info)}\n`);
    console.log(report.text);
    console.log(`\nresults: ${writeResults("locomo", info, { dataset: path, ...report.json })}`);
  } finally {
    temp.remove();
  }
}

function withoutSpeakers(q: LocomoQuestion, data: LocomoData): string {
  const speakers = new Set((data.speakers.get(q.conversation) ?? []).map((name) => name.toLowerCase()));
  const named = namesIn(extractEntities(q.question)).map((name) => name.toLowerCase());
  return withoutNames(
    q.question,
    named.filter((name) => speakers.has(name)),
  );
}

export interface Ingest {
  readonly ms: number;
  readonly duplicates: number;
  /** Memory id → the dia_id of the turn it was added from (the first, for a repeated turn). */
  readonly diaIdOf: ReadonlyMap<string, string>;
}

/** One add per session, each message named by its speaker, at the session's date. */
export async function ingestSessions(memory: Memory, data: LocomoData): Promise<Ingest> {
  progress(`ingesting ${data.turns.length} turns, one add per session`);
  const sessions = new Map<string, LocomoTurn[]>();
  for (const turn of data.turns) {
    const key = `${turn.conversation}/${turn.session}`;
    sessions.set(key, [...(sessions.get(key) ?? []), turn]);
  }
  const diaIdOf = new Map<string, string>();
  let duplicates = 0;
  const start = performance.now();
  for (const turns of sessions.values()) {
    const first = turns[0] as LocomoTurn;
    const { results } = await memory.add(
      turns.map((turn) => ({ role: "user", name: turn.speaker, content: turn.text })),
      {
        userId: first.conversation,
        createdAt: first.sessionTime,
        metadata: { session_date: first.sessionDate },
      },
    );
    // One result per distinct text, in first-seen order; a text already stored comes back as NONE.
    const distinct = [...new Map(turns.map((turn) => [turn.text, turn])).values()];
    duplicates += turns.length - distinct.length;
    results.forEach((result, index) => {
      if (result.event === "NONE") duplicates++;
      else diaIdOf.set(result.id, distinct[index]?.diaId ?? "?");
    });
  }
  return { ms: performance.now() - start, duplicates, diaIdOf };
}

async function searchAllModes(
  memory: Memory,
  questions: readonly LocomoQuestion[],
  diaIdOf: ReadonlyMap<string, string>,
  label: string,
): Promise<Record<SearchMode, ModeRun>> {
  const runs: Partial<Record<SearchMode, ModeRun>> = {};
  for (const mode of SEARCH_MODES) {
    progress(`${label} search, ${mode}`);
    const search = (q: LocomoQuestion) =>
      memory.search(q.question, { filters: { user_id: q.conversation }, topK: TOP_K, threshold: 0, mode });
    for (const q of questions.slice(0, WARM_UP)) await search(q);
    const rankings: Ranking[] = [];
    const sampler = createSampler();
    for (const q of questions) {
      const { results } = await sampler.run(() => search(q));
      rankings.push({
        category: q.category,
        evidence: q.evidence,
        ranked: results.map((item) => diaIdOf.get(item.id) ?? "?"),
      });
    }
    const { wall, cpu } = sampler.summary();
    runs[mode] = { rankings, latency: wall, cpu };
  }
  return runs as Record<SearchMode, ModeRun>;
}

/**
 * The dense signal alone, exact cosine over each conversation's turns, with the question as asked
 * and as search embeds it (without the speakers' names): what leaving the names out is worth.
 */
function nameStripping(
  data: LocomoData,
  vectors: ReadonlyMap<string, Float32Array>,
): { asked: readonly number[]; stripped: readonly number[] } {
  const recallWith = (queryOf: (q: LocomoQuestion) => string) => {
    const rankings: Ranking[] = data.questions.map((q) => {
      const query = vectors.get(queryOf(q)) as Float32Array;
      const turns = data.turns.filter((turn) => turn.conversation === q.conversation);
      const scored = turns.map((turn) => ({
        id: turn.diaId,
        score: cosine(query, vectors.get(turn.text) as Float32Array),
      }));
      scored.sort((a, b) => b.score - a.score);
      return { category: q.category, evidence: q.evidence, ranked: scored.map((entry) => entry.id) };
    });
    return recallTable(rankings, CATEGORY_NAMES)[0]?.recall ?? [];
  };
  return { asked: recallWith((q) => q.question), stripped: recallWith((q) => withoutSpeakers(q, data)) };
}

function buildReport(input: {
  data: LocomoData;
  cache: { embedMs: number; fromCache: boolean; file: string };
  ingest: Ingest;
  engineRuns: Record<SearchMode, ModeRun>;
  liveRuns: Record<SearchMode, ModeRun>;
  tuning: TuningReport | undefined;
  names: { asked: readonly number[]; stripped: readonly number[] };
}): { text: string; json: Record<string, unknown> } {
  const { data, cache, ingest, engineRuns, liveRuns, tuning, names } = input;
  const tables = SEARCH_MODES.map((mode) => ({
    mode,
    rows: recallTable(engineRuns[mode].rankings, CATEGORY_NAMES),
  }));
  const liveTables = SEARCH_MODES.map((mode) => ({
    mode,
    rows: recallTable(liveRuns[mode].rankings, CATEGORY_NAMES),
  }));
  const at10 = (rows: readonly RecallRow[]) => rows[0]?.recall[RECALL_KS.indexOf(10)] ?? Number.NaN;
  const r10 = Object.fromEntries(tables.map(({ mode, rows }) => [mode, at10(rows)])) as Record<
    SearchMode,
    number
  >;

  const corpus = renderTable(
    [
      "conversations",
      "turns",
      "questions (cat 1-4)",
      "duplicate turns",
      "embed all texts (s)",
      "ingest (s)",
      "ingest (memories/s)",
    ],
    [
      [
        data.conversations.length,
        data.turns.length,
        data.questions.length,
        ingest.duplicates,
        `${(cache.embedMs / 1000).toFixed(1)}${cache.fromCache ? " (cached run)" : ""}`,
        fixed(ingest.ms / 1000, 2),
        Math.round(data.turns.length / (ingest.ms / 1000)),
      ],
    ],
  );
  const overall = renderTable(
    ["mode", ...RECALL_KS.map((k) => `r@${k}`), "live-embedder r@10"],
    tables.map(({ mode, rows }) => [
      mode,
      ...(rows[0]?.recall ?? []).map((value) => fixed(value, 3)),
      fixed(at10(liveTables.find((t) => t.mode === mode)?.rows ?? []), 3),
    ]),
  );
  const categories = Object.entries(CATEGORY_NAMES).map(([category, name], index) => [
    `${category} ${name}`,
    tables[0]?.rows[index + 1]?.questions ?? 0,
    ...tables.map(({ rows }) => fixed(rows[index + 1]?.recall[RECALL_KS.indexOf(10)] ?? Number.NaN, 3)),
  ]);
  const perCategory = renderTable(
    ["category", "questions", ...SEARCH_MODES.map((mode) => `${mode} r@10`)],
    categories,
  );
  const latency = renderTable(
    [
      "mode",
      "engine p50 ms",
      "engine p95 ms",
      "engine cpu p50 ms",
      "end-to-end p50 ms",
      "end-to-end p95 ms",
      "end-to-end cpu p50 ms",
    ],
    SEARCH_MODES.map((mode) => [
      mode,
      fixed(engineRuns[mode].latency.p50, 2),
      fixed(engineRuns[mode].latency.p95, 2),
      fixed(engineRuns[mode].cpu.p50, 2),
      fixed(liveRuns[mode].latency.p50, 2),
      fixed(liveRuns[mode].latency.p95, 2),
      fixed(liveRuns[mode].cpu.p50, 2),
    ]),
  );
  const goals: Goal[] = [
    { name: "hybrid recall@10", target: "≥ 0.85", actual: r10.hybrid.toFixed(3), pass: r10.hybrid >= 0.85 },
    { name: "dense-only recall@10", target: "≥ 0.55", actual: r10.dense.toFixed(3), pass: r10.dense >= 0.55 },
    {
      name: "hybrid recall@10 above dense and keyword",
      target: `> ${r10.dense.toFixed(3)} and > ${r10.keyword.toFixed(3)}`,
      actual: r10.hybrid.toFixed(3),
      pass: r10.hybrid > r10.dense && r10.hybrid > r10.keyword,
    },
  ];
  const stripping = renderTable(
    ["dense signal alone (exact cosine)", ...RECALL_KS.map((k) => `r@${k}`)],
    [
      ["question as asked", ...names.asked.map((value) => fixed(value, 3))],
      [
        "without the speakers' names (as search embeds it)",
        ...names.stripped.map((value) => fixed(value, 3)),
      ],
    ],
  );
  const sections = [
    corpus,
    `Recall (engine-only store; last column: same questions embedded live one at a time)\n${overall}`,
    `Recall@10 by category\n${perCategory}`,
    `Speakers' names in the dense query\n${stripping}`,
    `Search latency (topK ${TOP_K}, ${data.questions.length} queries per mode after ${WARM_UP} warm-up)\n${latency}`,
    `Goals\n${renderGoals(goals)}`,
  ];
  if (tuning !== undefined) sections.push(renderTuningReport(tuning));
  const json = {
    corpus: {
      conversations: data.conversations,
      turns: data.turns.length,
      questions: data.questions.length,
      duplicateTurns: ingest.duplicates,
      embedMs: cache.embedMs,
      embedFromCache: cache.fromCache,
      vectorCache: cache.file,
      ingestMs: ingest.ms,
    },
    recall: Object.fromEntries(tables.map(({ mode, rows }) => [mode, rows])),
    liveRecall: Object.fromEntries(liveTables.map(({ mode, rows }) => [mode, rows])),
    latency: Object.fromEntries(
      SEARCH_MODES.map((mode) => [
        mode,
        {
          engineOnly: engineRuns[mode].latency,
          engineOnlyCpu: engineRuns[mode].cpu,
          endToEnd: liveRuns[mode].latency,
          endToEndCpu: liveRuns[mode].cpu,
        },
      ]),
    ),
    goals,
    tuning,
    nameStripping: names,
  };
  return { text: sections.join("\n\n"), json };
}
