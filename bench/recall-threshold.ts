/**
 * `npx tsx bench/recall-threshold.ts [--quick]`: the default `recall` threshold, chosen from data.
 *
 * Every LoCoMo turn becomes a memory as `locomo.ts` adds them (one scope per conversation, one
 * `add(messages)` per session), and every question of categories 1–4 is searched once as `recall`
 * searches: hybrid, topK = 2 × maxMemories, the question embedded live by the default local model.
 * Each threshold is then applied to those results: the fused score does not depend on the
 * threshold, so the results at or above it are exactly what `recall` with that threshold finds,
 * and `selectMemories` (the block's ranking, 15-memory cap and token budget) picks what is injected.
 * A result is relevant when its memory is one of the question's evidence turns. Every LoCoMo
 * question has evidence, so each is also asked of the next conversation's scope, where nothing is
 * relevant: what a threshold lets through for an off-topic turn. `--quick` reads only the first
 * conversation (and so has no off-topic run).
 *
 * @module
 */

import { createLocalEmbedder, type Memory, type MemoryItem, openMemory } from "../src/index.js";
import {
  type BlockOptions,
  DEFAULT_CATEGORY_ORDER,
  RECALL_DEFAULTS,
  type RecallCandidate,
  selectMemories,
} from "../src/memory/recall-block.js";
import { DEFAULT_CATEGORIES } from "../src/policy/categories.js";
import { ingestSessions } from "./locomo.js";
import { CATEGORY_NAMES, type LocomoQuestion, loadLocomo } from "./locomo-data.js";
import { createTempDir, locomoPath } from "./paths.js";
import { precomputedLike } from "./precomputed-embedder.js";
import { fixed, renderRunInfo, renderTable, runInfo, writeResults } from "./report.js";
import { mean, percentile } from "./stats.js";

const THRESHOLDS = [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5] as const;

/** `recall.ts` over-fetches twice what the block keeps, as Mem0's recall does. */
const TOP_K = RECALL_DEFAULTS.maxMemories * 2;

/** `recall`'s defaults (Mem0's block), so the cap and the budget are the ones a host gets. */
const BLOCK: BlockOptions = {
  tokenBudget: RECALL_DEFAULTS.tokenBudget,
  maxMemories: RECALL_DEFAULTS.maxMemories,
  categoryOrder: DEFAULT_CATEGORY_ORDER,
  identityAlwaysInclude: true,
};

/** "Keeps the evidence": at least this share of the evidence recall injected with no threshold. */
const RECALL_KEPT = 0.9;

interface Found {
  readonly question: LocomoQuestion;
  /** Best first, as search returned them; `diaId` is the turn the memory was added from. */
  readonly results: readonly { readonly candidate: RecallCandidate; readonly diaId: string }[];
}

interface ThresholdRow {
  readonly threshold: number;
  /** Mean over questions of the evidence share at or above the threshold among the top TOP_K. */
  readonly foundRecall: number;
  /** The same, of what the block injects (capped at 15 memories and the token budget). */
  readonly injectedRecall: number;
  readonly injectedRecallByCategory: Readonly<Record<number, number>>;
  /** Relevant injected over all injected, pooled over questions (an empty block adds nothing). */
  readonly precision: number;
  readonly f1: number;
  readonly meanInjected: number;
  readonly emptyShare: number;
  /** Asked of another conversation's scope: memories injected, and the share of empty blocks. */
  readonly offTopicInjected: number;
  readonly offTopicEmptyShare: number;
}

const percent = (share: number) => (Number.isNaN(share) ? "—" : `${(share * 100).toFixed(1)}%`);

const progress = (message: string) => process.stderr.write(`recall-threshold: ${message}\n`);

async function main(): Promise<void> {
  const started = performance.now();
  const args = process.argv.slice(2);
  const quick = args.includes("--quick");
  const path = locomoPath();
  const data = loadLocomo(path, quick ? { conversations: 1 } : {});
  if (data === null) {
    console.log(`Recall threshold benchmark skipped: no dataset at ${path} (set LUCID_LOCOMO to its path).`);
    return;
  }
  const info = runInfo();
  const viaNpm = process.env.npm_lifecycle_event?.startsWith("bench") === true;
  const command = viaNpm ? info.command : `npx tsx bench/recall-threshold.ts ${args.join(" ")}`.trim();

  const local = createLocalEmbedder();
  progress(`${data.turns.length} turns, ${data.questions.length} questions`);
  // Only the turns are cached: the questions are embedded live, one at a time, as recall embeds them.
  const { embedder: precomputed } = await precomputedLike(local, {
    name: "recall-threshold",
    texts: data.turns.map((turn) => turn.text),
    onProgress: (done, total) => progress(`embedded ${done}/${total}`),
  });

  const temp = createTempDir("recall-threshold");
  try {
    const dbPath = temp.path("locomo.db");
    const writer = await openMemory({ path: dbPath, embedder: precomputed });
    const { diaIdOf } = await ingestSessions(writer, data);
    await writer.close();
    // Same file, same embedder stamp: locomo.ts's end-to-end path, so these are the scores recall sees.
    const live = await openMemory({ path: dbPath, embedder: local });
    const found = await searchAll(live, data.questions, diaIdOf, (q) => q.conversation);
    const others = data.conversations;
    const offTopic =
      others.length < 2
        ? []
        : await searchAll(live, data.questions, diaIdOf, (q) => {
            const next = (others.indexOf(q.conversation) + 1) % others.length;
            return others[next] as string;
          });
    await live.close();

    const rows = THRESHOLDS.map((threshold) => measure(found, offTopic, threshold));
    const scores = scoreDistribution(found, offTopic);
    const seconds = (performance.now() - started) / 1000;
    const scope = quick ? "first conversation only (--quick)" : "all conversations, no subsampling";
    console.log(`\n## Recall threshold (LoCoMo)\n\n${renderRunInfo({ ...info, command })}\n`);
    console.log(
      `Data: ${path}, ${scope}: ${data.conversations.length} conversations, ${data.turns.length} turns, ` +
        `${data.questions.length} questions (categories 1–4). Hybrid search, topK ${TOP_K}, block capped at ` +
        `${BLOCK.maxMemories} memories and ${BLOCK.tokenBudget} tokens; runtime ${seconds.toFixed(0)} s.\n`,
    );
    console.log(renderReport(rows, scores));
    const results = { dataset: path, quick, topK: TOP_K, block: BLOCK, rows, scores, seconds };
    console.log(`\nresults: ${writeResults("recall-threshold", info, results)}`);
  } finally {
    temp.remove();
  }
}

async function searchAll(
  memory: Memory,
  questions: readonly LocomoQuestion[],
  diaIdOf: ReadonlyMap<string, string>,
  scopeOf: (question: LocomoQuestion) => string,
): Promise<Found[]> {
  const found: Found[] = [];
  for (const [index, question] of questions.entries()) {
    if (index % 100 === 0) progress(`searched ${index}/${questions.length}`);
    const { results } = await memory.search(question.question, {
      filters: { user_id: scopeOf(question) },
      topK: TOP_K,
      threshold: 0,
    });
    found.push({
      question,
      results: results.map((item) => ({ candidate: candidate(item), diaId: diaIdOf.get(item.id) ?? "?" })),
    });
  }
  return found;
}

/** The candidate `recall.ts` builds from a search result. */
function candidate(item: MemoryItem): RecallCandidate {
  const category = typeof item.metadata.category === "string" ? item.metadata.category : null;
  return { id: item.id, memory: item.memory, category, metadata: item.metadata, score: item.score ?? 0 };
}

/** What recall with this threshold finds and then injects: the dia_ids of both. */
function inject(results: Found["results"], threshold: number): { found: Set<string>; injected: string[] } {
  const passing = results.filter((result) => (result.candidate.score ?? 0) >= threshold);
  const diaIdOfId = new Map(passing.map((result) => [result.candidate.id, result.diaId]));
  const { memories } = selectMemories(
    passing.map((result) => result.candidate),
    DEFAULT_CATEGORIES,
    BLOCK,
  );
  return {
    found: new Set(passing.map((result) => result.diaId)),
    injected: memories.map((memory) => diaIdOfId.get(memory.id) ?? "?"),
  };
}

function measure(found: readonly Found[], offTopic: readonly Found[], threshold: number): ThresholdRow {
  let injectedTotal = 0;
  let relevantTotal = 0;
  let empty = 0;
  const perQuestion = found.map(({ question, results }) => {
    const block = inject(results, threshold);
    const injected = new Set(block.injected);
    const evidence = new Set(question.evidence);
    injectedTotal += block.injected.length;
    relevantTotal += [...injected].filter((id) => evidence.has(id)).length;
    if (block.injected.length === 0) empty++;
    const share = (ids: ReadonlySet<string>) =>
      question.evidence.filter((id) => ids.has(id)).length / question.evidence.length;
    return {
      category: question.category,
      found: share(block.found),
      injected: share(injected),
    };
  });
  const offTopicSizes = offTopic.map(({ results }) => inject(results, threshold).injected.length);
  const injectedRecall = mean(perQuestion.map((q) => q.injected));
  const precision = injectedTotal === 0 ? 0 : relevantTotal / injectedTotal;
  const byCategory = Object.keys(CATEGORY_NAMES).map((category) => [
    Number(category),
    mean(perQuestion.filter((q) => q.category === Number(category)).map((q) => q.injected)),
  ]);
  return {
    threshold,
    foundRecall: mean(perQuestion.map((q) => q.found)),
    injectedRecall,
    injectedRecallByCategory: Object.fromEntries(byCategory),
    precision,
    f1:
      precision + injectedRecall === 0 ? 0 : (2 * precision * injectedRecall) / (precision + injectedRecall),
    meanInjected: injectedTotal / found.length,
    emptyShare: empty / found.length,
    offTopicInjected: mean(offTopicSizes),
    offTopicEmptyShare: mean(offTopicSizes.map((size) => (size === 0 ? 1 : 0))),
  };
}

interface Distribution {
  readonly label: string;
  readonly count: number;
  readonly p10: number;
  readonly p50: number;
  readonly p90: number;
}

/** Scores of the top-TOP_K results at threshold 0: evidence turns, the others, off-topic results. */
function scoreDistribution(found: readonly Found[], offTopic: readonly Found[]): Distribution[] {
  const relevant: number[] = [];
  const irrelevant: number[] = [];
  for (const { question, results } of found) {
    for (const result of results) {
      (question.evidence.includes(result.diaId) ? relevant : irrelevant).push(result.candidate.score ?? 0);
    }
  }
  const scoreOf = (result: Found["results"][number]) => result.candidate.score ?? 0;
  // The best off-topic result is the one a threshold has to stop for the block to stay empty.
  const offTopicBest = offTopic.flatMap(({ results }) => results.slice(0, 1).map(scoreOf));
  const summary = (label: string, scores: readonly number[]): Distribution => {
    const sorted = [...scores].sort((a, b) => a - b);
    const at = (fraction: number) => percentile(sorted, fraction);
    return { label, count: sorted.length, p10: at(0.1), p50: at(0.5), p90: at(0.9) };
  };
  return [
    summary("evidence turns", relevant),
    summary("other turns of the conversation", irrelevant),
    summary(
      "off-topic: all results",
      offTopic.flatMap(({ results }) => results.map(scoreOf)),
    ),
    summary("off-topic: best result per query", offTopicBest),
  ].filter((row) => row.count > 0);
}

function renderReport(rows: readonly ThresholdRow[], scores: readonly Distribution[]): string {
  const sweep = renderTable(
    [
      "threshold",
      `evidence recall, top ${TOP_K} ≥ t`,
      "evidence recall, injected",
      "precision",
      "F1",
      "mean injected",
      "nothing injected",
      "off-topic: mean injected",
      "off-topic: nothing injected",
    ],
    rows.map((row) => [
      row.threshold.toFixed(2),
      fixed(row.foundRecall, 3),
      fixed(row.injectedRecall, 3),
      fixed(row.precision, 3),
      fixed(row.f1, 3),
      fixed(row.meanInjected, 2),
      percent(row.emptyShare),
      fixed(row.offTopicInjected, 2),
      percent(row.offTopicEmptyShare),
    ]),
  );
  const categories = renderTable(
    ["threshold", ...Object.entries(CATEGORY_NAMES).map(([category, name]) => `${category} ${name}`)],
    rows.map((row) => [
      row.threshold.toFixed(2),
      ...Object.keys(CATEGORY_NAMES).map((category) =>
        fixed(row.injectedRecallByCategory[Number(category)] ?? Number.NaN, 3),
      ),
    ]),
  );
  const distribution = renderTable(
    [`top-${TOP_K} results at threshold 0`, "count", "p10", "p50", "p90"],
    scores.map((row) => [row.label, row.count, fixed(row.p10, 3), fixed(row.p50, 3), fixed(row.p90, 3)]),
  );
  const best = rows.reduce((a, b) => (b.f1 > a.f1 ? b : a));
  const floor = RECALL_KEPT * (rows[0]?.injectedRecall ?? 0);
  const keeping = rows
    .filter((row) => row.injectedRecall >= floor)
    .reduce((a, b) => (b.meanInjected < a.meanInjected ? b : a));
  const verdict = [
    `- Highest F1: t = ${best.threshold.toFixed(2)} (F1 ${best.f1.toFixed(3)}, injected recall ` +
      `${best.injectedRecall.toFixed(3)}, ${best.meanInjected.toFixed(1)} memories a question)` +
      // With one or two evidence turns a question, precision rises until the block is nearly empty.
      (best === rows.at(-1) ? "; still rising at the last threshold tried." : "."),
    `- Fewest memories keeping ≥ ${RECALL_KEPT * 100}% of t = 0's injected recall (≥ ${floor.toFixed(3)}): ` +
      `t = ${keeping.threshold.toFixed(2)} (recall ${keeping.injectedRecall.toFixed(3)}, ` +
      `${keeping.meanInjected.toFixed(1)} memories a question, ${percent(keeping.emptyShare)} empty, ${keeping.offTopicInjected.toFixed(1)} off-topic).`,
  ].join("\n");
  return [
    `Per threshold (recall: mean over questions; precision pooled over all injected memories)\n\n${sweep}`,
    `Evidence recall of the injected block by category\n\n${categories}`,
    `Fused scores\n\n${distribution}`,
    verdict,
  ].join("\n\n");
}

await main();
