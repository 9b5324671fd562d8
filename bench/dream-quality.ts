/**
 * Dream quality on the labelled corpora — our own (test/fixtures/dream/), the independent one
 * (test/fixtures/dream-independent/, written from the rules alone and never tuned on) and the
 * development one (test/fixtures/dream-dev/, written the same way, worked on): every scope
 * imported into a real SQLite store, planned end to end, and scored per label and per kind, with
 * the harmful actions counted; merges and conflicts of our corpus also straight from their
 * analysers, to separate what they find from what precedence (an expired member, say) takes away.
 * The independent corpus is reported in aggregate only: reading its individual misses would be
 * tuning on it.
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
import {
  type CorpusScope,
  loadDevDreamCorpus,
  loadDreamCorpus,
  loadIndependentDreamCorpus,
} from "../test/fixtures/dream/corpus.js";
import {
  type Evaluation,
  evaluate,
  type HarmKind,
  precision,
  recall,
} from "../test/fixtures/dream/evaluate.js";
import { fixed, renderTable } from "./report.js";

/** The embedder `--embedder` names: MiniLM, the default of new stores, unless told otherwise. */
export function qualityEmbedder(name: string | undefined): Embedder {
  if (name === undefined || name === "minilm") return createLocalEmbedder();
  if (name === "use-lite") return createUseLiteEmbedder();
  throw new Error(`--embedder takes use-lite or minilm, got ${name}.`);
}

export interface QualityResult {
  readonly memories: number;
  readonly independentMemories: number;
  readonly tuned: Evaluation;
  readonly heldOut: Evaluation;
  readonly independent: Evaluation;
  /** The development corpus: written like the independent one, but read and worked on. */
  readonly dev: Evaluation;
  readonly devMemories: number;
  /** Applied or up for review: what a person reviewing the dream gets to see. */
  readonly surfaced: {
    readonly tuned: Evaluation;
    readonly independent: Evaluation;
    readonly dev: Evaluation;
  };
  /** merge / conflict straight from the analysers, before precedence. */
  readonly analysersOnly: Evaluation;
}

/** `embedder`: MiniLM by default, what a new store embeds with; `--embedder use-lite` for the older model. */
export async function measureQuality(embedder: Embedder = createLocalEmbedder()): Promise<QualityResult> {
  const own = loadDreamCorpus();
  // Distinct scope names in the two corpora, so one store holds both.
  const independent = loadIndependentDreamCorpus();
  const dev = loadDevDreamCorpus();
  const scopes = [...own, ...independent, ...dev];
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
      if (scope.scores !== "merge-conflict" || !own.includes(scope)) continue;
      const snapshot = await loadSnapshot(context.store, {
        scope: scopeFromOptions(scope.scope),
        now: scope.now,
      });
      const actions = [...analyseDuplicates(snapshot, policy), ...analyseContradictions(snapshot, policy)];
      raw.push({ scope, plan: { ...plan, actions } });
    }
    return {
      memories: own.reduce((sum, scope) => sum + scope.records.length, 0),
      independentMemories: independent.reduce((sum, scope) => sum + scope.records.length, 0),
      devMemories: dev.reduce((sum, scope) => sum + scope.records.length, 0),
      dev: evaluate(plans.filter((result) => dev.includes(result.scope))),
      tuned: evaluate(plans.filter((result) => own.includes(result.scope) && !result.scope.heldOut)),
      heldOut: evaluate(plans.filter((result) => own.includes(result.scope) && result.scope.heldOut)),
      independent: evaluate(plans.filter((result) => independent.includes(result.scope))),
      surfaced: {
        tuned: evaluate(
          surfaced(plans.filter((result) => own.includes(result.scope) && !result.scope.heldOut)),
        ),
        independent: evaluate(surfaced(plans.filter((result) => independent.includes(result.scope)))),
        dev: evaluate(surfaced(plans.filter((result) => dev.includes(result.scope)))),
      },
      analysersOnly: evaluate(raw),
    };
  } finally {
    await memory.close();
  }
}

const HARM_KINDS: readonly HarmKind[] = [
  "kept memory deleted or merged",
  "contradiction merged",
  "newer fact deleted",
];

/** Each plan with its review items' proposals counted as actions. */
function surfaced(
  results: readonly { scope: CorpusScope; plan: DreamPlan }[],
): { scope: CorpusScope; plan: DreamPlan }[] {
  return results.map(({ scope, plan }) => ({
    scope,
    plan: { ...plan, actions: [...plan.actions, ...plan.review.map((item) => item.proposal)] },
  }));
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
    ...labels(result.independent).map((label) => row("independent", result.independent, label)),
    ...["merge", "conflict"].map((label) => row("corpus, surfaced", result.surfaced.tuned, label)),
    ...["merge", "conflict"].map((label) => row("independent, surfaced", result.surfaced.independent, label)),
    ...labels(result.dev).map((label) => row("dev", result.dev, label)),
    ...["merge", "conflict"].map((label) => row("dev, surfaced", result.surfaced.dev, label)),
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
      [
        "independent",
        result.independent.hardNegatives,
        result.independent.hardNegativeHits.length,
        "(not listed: never tuned on)",
      ],
    ],
  );
  const harms = renderTable(
    ["set", ...HARM_KINDS],
    (
      [
        ["corpus", result.tuned],
        ["held out", result.heldOut],
        ["independent", result.independent],
        ["dev", result.dev],
      ] as const
    ).map(([set, evaluation]) => [
      set,
      ...HARM_KINDS.map((kind) => evaluation.harmful.filter((harm) => harm.what === kind).length),
    ]),
  );
  const misses = result.heldOut.mistakes.map(
    (mistake) =>
      `- ${mistake.id}: expected ${mistake.expected.join("+") || "none"}, got ${mistake.got.join("+") || "none"}`,
  );
  return [
    `Corpora: ${result.memories} labelled memories of our own (corpus.json + pairs.json), ${result.independentMemories} independent ones and ${result.devMemories} of the development corpus, planned end to end.`,
    "",
    renderTable(
      ["label", "set", "expected", "tp", "fp", "fn", "precision", "recall"],
      rows as (string | number)[][],
    ),
    "",
    negatives,
    "",
    "Harmful actions (what accepting the plan would lose)",
    harms,
    "",
    "Held-out mistakes:",
    ...misses,
  ].join("\n");
}

function hits(evaluation: Evaluation): string {
  return evaluation.hardNegativeHits.map((hit) => `${hit.id} (${hit.got.join("+")})`).join(", ") || "—";
}
