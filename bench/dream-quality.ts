/**
 * Dream quality on the labelled corpus (test/fixtures/dream/corpus.json + pairs.json): every
 * scope imported into a real SQLite store with the local embedder, planned end to end, and scored
 * per label and per kind; merges and conflicts also straight from their analysers, to separate
 * what they find from what precedence (an expired member, say) takes away.
 *
 * @module
 */

import { scopeFromOptions } from "../src/core/scope.js";
import { analyseContradictions } from "../src/dream/analyse/contradictions.js";
import { analyseDuplicates } from "../src/dream/analyse/duplicates.js";
import { loadSnapshot } from "../src/dream/load-snapshot.js";
import type { DreamPlan } from "../src/dream/plan.js";
import { createLocalEmbedder, createUseLiteEmbedder, type Embedder, openMemory } from "../src/index.js";
import { resolvePolicy } from "../src/policy/resolve-policy.js";
import { type CorpusScope, loadDreamCorpus } from "../test/fixtures/dream/corpus.js";
import { type Evaluation, evaluate, precision, recall } from "../test/fixtures/dream/evaluate.js";
import { fixed, renderTable } from "./report.js";

/** The embedder `--embedder` names. */
export function qualityEmbedder(name: string | undefined): Embedder {
  if (name === undefined || name === "use-lite") return createUseLiteEmbedder();
  if (name === "minilm") return createLocalEmbedder();
  throw new Error(`--embedder takes use-lite or minilm, got ${name}.`);
}

export interface QualityResult {
  readonly memories: number;
  readonly tuned: Evaluation;
  readonly heldOut: Evaluation;
  /** merge / conflict straight from the analysers, before precedence. */
  readonly analysersOnly: Evaluation;
}

/**
 * `embedder`: USE lite by default — the analysers' thresholds were chosen with it; `--embedder minilm`
 * measures the default local model of new stores.
 */
export async function measureQuality(embedder: Embedder = createUseLiteEmbedder()): Promise<QualityResult> {
  const scopes = loadDreamCorpus();
  // "allow": secrets stay in the store, as in one written before redaction-on-add or by Mem0.
  const memory = await openMemory({
    path: ":memory:",
    embedder,
    policy: { secrets: { onAdd: "allow" } },
  });
  try {
    for (const scope of scopes) await memory.importMemories([...scope.records]);
    const context = await memory.ready();
    const policy = await resolvePolicy();
    const plans: { scope: CorpusScope; plan: DreamPlan }[] = [];
    const raw: { scope: CorpusScope; plan: DreamPlan }[] = [];
    for (const scope of scopes) {
      const plan = await memory.dream.plan(scope.scope, { now: scope.now });
      plans.push({ scope, plan });
      if (scope.scores !== "merge-conflict") continue;
      const snapshot = await loadSnapshot(context.store, {
        scope: scopeFromOptions(scope.scope),
        now: scope.now,
      });
      const actions = [...analyseDuplicates(snapshot, policy), ...analyseContradictions(snapshot, policy)];
      raw.push({ scope, plan: { ...plan, actions } });
    }
    return {
      memories: scopes.reduce((sum, scope) => sum + scope.records.length, 0),
      tuned: evaluate(plans.filter((result) => !result.scope.heldOut)),
      heldOut: evaluate(plans.filter((result) => result.scope.heldOut)),
      analysersOnly: evaluate(raw),
    };
  } finally {
    await memory.close();
  }
}

export function renderQuality(result: QualityResult): string {
  const row = (set: string, evaluation: Evaluation, label: string) => {
    const score = evaluation.scores.get(label);
    if (score === undefined) return undefined;
    return [
      label,
      set,
      score.tp + score.fn,
      score.tp,
      score.fp,
      score.fn,
      fixed(precision(score), 2),
      fixed(recall(score), 2),
    ];
  };
  const labels = (evaluation: Evaluation) => [...evaluation.scores.keys()].sort();
  const rows = [
    ...labels(result.tuned).map((label) => row("corpus", result.tuned, label)),
    ...["merge", "conflict"].map((label) => row("analyser only", result.analysersOnly, label)),
    ...labels(result.heldOut).map((label) => row("held out", result.heldOut, label)),
  ].filter((cells) => cells !== undefined);
  const negatives = renderTable(
    ["set", "hard negatives and protected memories", "acted on", "which"],
    [
      ["corpus", result.tuned.hardNegatives, result.tuned.hardNegativeHits.length, hits(result.tuned)],
      [
        "held out",
        result.heldOut.hardNegatives,
        result.heldOut.hardNegativeHits.length,
        hits(result.heldOut),
      ],
    ],
  );
  const misses = result.heldOut.mistakes.map(
    (mistake) =>
      `- ${mistake.id}: expected ${mistake.expected.join("+") || "none"}, got ${mistake.got.join("+") || "none"}`,
  );
  return [
    `Corpus: ${result.memories} labelled memories (corpus.json + pairs.json), planned end to end.`,
    "",
    renderTable(
      ["label", "set", "expected", "tp", "fp", "fn", "precision", "recall"],
      rows as (string | number)[][],
    ),
    "",
    negatives,
    "",
    "Held-out mistakes:",
    ...misses,
  ].join("\n");
}

function hits(evaluation: Evaluation): string {
  return evaluation.hardNegativeHits.map((hit) => `${hit.id} (${hit.got.join("+")})`).join(", ") || "—";
}
