/**
 * Offline fusion experiments: re-rank each question's candidates with alternative formulas and
 * compare recall with the current one (`src/search/fuse.ts`: semantic + bm25 + entity, all
 * weight 1). The engine's candidate generation is simulated from the full signal lists: the dense,
 * keyword and entity top-`POOL`, as `search` fetches them for topK 20.
 *
 * Weights are tuned on the same questions they are scored on, so the grid's best is optimistic;
 * leave-one-conversation-out cross-validation gives the honest number.
 *
 * @module
 */

import type { QuestionCandidates } from "./fusion-candidates.js";
import {
  type Fusion,
  type Lists,
  normalisedSum,
  POOL,
  reciprocalRank,
  simulatePool,
  type Weights,
  weightedSum,
} from "./fusions.js";
import { CATEGORY_NAMES } from "./locomo-data.js";
import { type Ranking, RECALL_KS, recallAt, recallTable } from "./recall.js";
import { fixed, renderTable } from "./report.js";

export interface FusionRow {
  readonly name: string;
  /** recall at RECALL_KS. */
  readonly recall: readonly number[];
  /** recall@10 per category 1–4. */
  readonly byCategory: readonly number[];
}

export interface FusionReport {
  readonly pool: number;
  readonly questions: number;
  /** Share of evidence each candidate list contains: the ceiling any re-ranking of it can reach. */
  readonly coverage: Record<string, number>;
  readonly rows: readonly FusionRow[];
  readonly grid: readonly { weights: Weights; recallAt10: number }[];
  readonly crossValidated: readonly { name: string; recallAt10: number; chosen: readonly string[] }[];
}

const R10 = RECALL_KS.indexOf(10);

function rankings(data: readonly QuestionCandidates[], lists: readonly Lists[], fusion: Fusion): Ranking[] {
  return data.map((q, index) => ({
    category: q.category,
    evidence: q.evidence,
    ranked: fusion(lists[index] as Lists).map((c) => c.diaId),
  }));
}

function row(name: string, ranked: readonly Ranking[]): FusionRow {
  const table = recallTable(ranked, CATEGORY_NAMES);
  return {
    name,
    recall: table[0]?.recall ?? [],
    byCategory: table.slice(1).map((r) => r.recall[R10] ?? Number.NaN),
  };
}

const meanRecall10 = (ranked: readonly Ranking[]) =>
  ranked.reduce((sum, r) => sum + recallAt(r, 10), 0) / Math.max(ranked.length, 1);

const GRID_BM25 = [0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.8, 1, 1.25, 1.5, 2];
const GRID_ENTITY = [0, 0.25, 0.5, 1, 1.5, 2];
const RRF_KS = [5, 10, 20, 30, 60, 100];

export function runFusionExperiments(data: readonly QuestionCandidates[]): FusionReport {
  const pooled = data.map((q) => simulatePool(q.candidates, POOL));
  const full = data.map((q) => simulatePool(q.candidates, Number.POSITIVE_INFINITY));
  const current: Weights = { semantic: 1, bm25: 1, entity: 1 };

  const coverage = Object.fromEntries(
    (["dense", "keyword", "entity", "union"] as const).map((list) => [
      `${list} top-${POOL}`,
      meanRecall10Of(data, pooled, list),
    ]),
  );

  const grid = GRID_BM25.flatMap((bm25) =>
    GRID_ENTITY.map((entity) => {
      const weights = { semantic: 1, bm25, entity };
      return { weights, recallAt10: meanRecall10(rankings(data, pooled, weightedSum(weights))) };
    }),
  ).sort((a, b) => b.recallAt10 - a.recallAt10);
  const best = grid[0]?.weights ?? current;
  const normalisedGrid = GRID_BM25.flatMap((bm25) =>
    GRID_ENTITY.map((entity) => {
      const weights = { semantic: 1, bm25, entity };
      return { weights, recallAt10: meanRecall10(rankings(data, pooled, normalisedSum(weights))) };
    }),
  ).sort((a, b) => b.recallAt10 - a.recallAt10);
  const bestNormalised = normalisedGrid[0]?.weights ?? current;
  const rrfBest = RRF_KS.map((k) => ({
    k,
    r: meanRecall10(rankings(data, pooled, reciprocalRank(k, { dense: 1, keyword: 1, entity: 1 }))),
  })).sort((a, b) => b.r - a.r)[0] ?? { k: 60, r: 0 };

  const describe = (w: Weights) => `sem ${w.semantic}, bm25 ${w.bm25}, entity ${w.entity}`;
  const fusions: [string, Fusion, readonly Lists[]][] = [
    ["current: sem + bm25 + entity (reproduced)", weightedSum(current), pooled],
    ["dense only (semantic order)", (lists) => lists.dense, pooled],
    ["keyword only (bm25 order)", (lists) => lists.keyword, pooled],
    ["RRF k=60: dense, keyword, entity", reciprocalRank(60, { dense: 1, keyword: 1, entity: 1 }), pooled],
    ["RRF k=60: dense, keyword", reciprocalRank(60, { dense: 1, keyword: 1, entity: 0 }), pooled],
    [
      `RRF k=${rrfBest.k} (best k): dense, keyword, entity`,
      reciprocalRank(rrfBest.k, { dense: 1, keyword: 1, entity: 1 }),
      pooled,
    ],
    [`weighted sum, grid best: ${describe(best)}`, weightedSum(best), pooled],
    [`normalised sum, grid best: ${describe(bestNormalised)}`, normalisedSum(bestNormalised), pooled],
    ["current formula, unlimited pool", weightedSum(current), full],
    [`grid best weights, unlimited pool`, weightedSum(best), full],
  ];
  const rows = fusions.map(([name, fusion, lists]) => row(name, rankings(data, lists, fusion)));

  // With one conversation there is nothing to hold out.
  const folds = new Set(data.map((q) => q.conversation)).size;
  const crossValidated =
    folds < 2
      ? []
      : [
          crossValidate(
            "weighted sum (grid picked per fold)",
            data,
            pooled,
            grid.map((g) => g.weights),
            weightedSum,
            describe,
          ),
          crossValidate(
            "normalised sum (grid picked per fold)",
            data,
            pooled,
            normalisedGrid.map((g) => g.weights),
            normalisedSum,
            describe,
          ),
          crossValidate(
            "RRF dense+keyword+entity (k picked per fold)",
            data,
            pooled,
            RRF_KS,
            (k) => reciprocalRank(k, { dense: 1, keyword: 1, entity: 1 }),
            (k) => `k=${k}`,
          ),
        ];
  return { pool: POOL, questions: data.length, coverage, rows, grid: grid.slice(0, 10), crossValidated };
}

function meanRecall10Of(
  data: readonly QuestionCandidates[],
  lists: readonly Lists[],
  list: keyof Lists,
): number {
  const ranked = data.map((q, index) => ({
    category: q.category,
    evidence: q.evidence,
    ranked: (lists[index] as Lists)[list].map((c) => c.diaId),
  }));
  return (
    ranked.reduce((sum, r) => sum + recallAt(r, Number.POSITIVE_INFINITY), 0) / Math.max(ranked.length, 1)
  );
}

/** Leave one conversation out: choose the setting on the others, score it on the held-out one. */
function crossValidate<S>(
  name: string,
  data: readonly QuestionCandidates[],
  lists: readonly Lists[],
  settings: readonly S[],
  fusionOf: (setting: S) => Fusion,
  describe: (setting: S) => string,
): { name: string; recallAt10: number; chosen: string[] } {
  const conversations = [...new Set(data.map((q) => q.conversation))];
  const held: number[] = [];
  const chosen: string[] = [];
  for (const conversation of conversations) {
    const inFold = (q: QuestionCandidates) => q.conversation !== conversation;
    const trainIndex = data.flatMap((q, index) => (inFold(q) ? [index] : []));
    const testIndex = data.flatMap((q, index) => (inFold(q) ? [] : [index]));
    const pick = (indexes: readonly number[]) => ({
      data: indexes.map((index) => data[index] as QuestionCandidates),
      lists: indexes.map((index) => lists[index] as Lists),
    });
    const train = pick(trainIndex);
    const test = pick(testIndex);
    let best = settings[0] as S;
    let bestScore = Number.NEGATIVE_INFINITY;
    for (const setting of settings) {
      const score = meanRecall10(rankings(train.data, train.lists, fusionOf(setting)));
      if (score > bestScore) {
        best = setting;
        bestScore = score;
      }
    }
    chosen.push(`${conversation}: ${describe(best)}`);
    for (const r of rankings(test.data, test.lists, fusionOf(best))) held.push(recallAt(r, 10));
  }
  return { name, recallAt10: held.reduce((sum, v) => sum + v, 0) / Math.max(held.length, 1), chosen };
}

export function renderFusionReport(report: FusionReport): string {
  const current = report.rows[0]?.recall[R10] ?? Number.NaN;
  const rows = renderTable(
    [
      "fusion",
      ...RECALL_KS.map((k) => `r@${k}`),
      "Δr@10",
      ...Object.values(CATEGORY_NAMES).map((n) => `${n} r@10`),
    ],
    report.rows.map((r) => [
      r.name,
      ...r.recall.map((v) => fixed(v, 3)),
      fixed((r.recall[R10] ?? Number.NaN) - current, 3),
      ...r.byCategory.map((v) => fixed(v, 3)),
    ]),
  );
  const coverage = renderTable(
    ["candidate list", "evidence recall (whole list)"],
    Object.entries(report.coverage).map(([list, value]) => [list, fixed(value, 3)]),
  );
  const grid = renderTable(
    ["w_sem", "w_bm25", "w_entity", "r@10"],
    report.grid.map((g) => [g.weights.semantic, g.weights.bm25, g.weights.entity, fixed(g.recallAt10, 4)]),
  );
  const cv = renderTable(
    ["tuned fusion", "leave-one-conversation-out r@10", "Δ vs current", "chosen per held-out conversation"],
    report.crossValidated.map((c) => [
      c.name,
      fixed(c.recallAt10, 3),
      fixed(c.recallAt10 - current, 3),
      c.chosen.join("; "),
    ]),
  );
  return [
    `## Fusion experiments (offline re-ranking of the engine's candidates; pool ${report.pool} per generator, ${report.questions} questions)`,
    `Candidate coverage\n${coverage}`,
    `Fusions\n${rows}`,
    `Weighted-sum grid, top 10 (w_sem fixed at 1: only ratios matter)\n${grid}`,
    `Cross-validated\n${cv}`,
  ].join("\n\n");
}
