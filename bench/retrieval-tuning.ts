/**
 * Choosing the fusion weights honestly: every memory of a question's conversation is collected
 * once with all its signals (`explain: true` with a topK larger than any conversation), the engine's
 * candidate pools are simulated from those lists, and the weights are searched by coordinate ascent
 * on four conversations and scored on the fifth (leave-one-conversation-out). Scoring goes through
 * `fuseEntries`, the function search itself ranks with, so what is tuned is what ships.
 *
 * Ablations switch one method off in turn (its weight held at 0, everything else re-tuned by the
 * same cross-validation), so each line says what that method is worth on conversations it was not
 * tuned on.
 *
 * @module
 */

import type { Memory } from "../src/index.js";
import {
  type ActiveSignals,
  FUSION_WEIGHTS,
  type FusionWeights,
  SIGNAL_NAMES,
  type Signals,
} from "../src/search/fuse.js";
import { namesIn } from "../src/search/query-names.js";
import { fuseEntries, type ScoredEntry } from "../src/search/rank.js";
import { extractEntities } from "../src/text/entities.js";
import { asksForTime, datesNamed } from "../src/text/time-expressions.js";
import type { LocomoData, LocomoQuestion } from "./locomo-data.js";
import { type Ranking, RECALL_KS, recallAt } from "./recall.js";
import { fixed, renderTable } from "./report.js";

/** Each generator's pool, as search fetches it for any topK up to 100. */
const POOL = 100;
/** Larger than any LoCoMo conversation (≤ 700 turns): every memory comes back with its signals. */
const ALL = 1000;

export interface Collected {
  readonly conversation: string;
  readonly category: number;
  readonly evidence: readonly string[];
  readonly active: ActiveSignals;
  /** The simulated candidate set: the union of each generator's top POOL. */
  readonly entries: readonly (ScoredEntry & { readonly diaId: string })[];
}

export async function collectSignals(
  memory: Memory,
  data: LocomoData,
  diaIdOf: ReadonlyMap<string, string>,
  progress: (message: string) => void,
): Promise<Collected[]> {
  progress(`collecting every candidate's signals for ${data.questions.length} questions`);
  const collected: Collected[] = [];
  for (const q of data.questions) {
    const { results } = await memory.search(q.question, {
      filters: { user_id: q.conversation },
      topK: ALL,
      threshold: 0,
      explain: true,
    });
    const all = results.map((item) => {
      const details = item.score_details;
      const signals: Signals = {
        semantic: details?.semanticScore ?? 0,
        bm25: details?.bm25Score ?? 0,
        entity: details?.entityBoost ?? 0,
        speaker: details?.speakerMatch ?? 0,
        date: details?.dateMatch ?? 0,
        time: details?.timeMatch ?? 0,
      };
      const diaId = diaIdOf.get(item.id) ?? "?";
      return {
        id: item.id,
        diaId,
        signals,
        matchedBy: details?.matchedBy ?? [],
        thread: `${q.conversation}/${diaId.split(":")[0]}`,
      };
    });
    collected.push({
      conversation: q.conversation,
      category: q.category,
      evidence: q.evidence,
      active: activeSignals(q, data, all),
      entries: simulatePools(all),
    });
  }
  return collected;
}

/** The signals this question can produce, decided as search decides them. */
function activeSignals(
  q: LocomoQuestion,
  data: LocomoData,
  all: readonly { matchedBy: readonly string[]; signals: Signals }[],
): ActiveSignals {
  const speakers = new Set((data.speakers.get(q.conversation) ?? []).map((name) => name.toLowerCase()));
  const named = namesIn(extractEntities(q.question)).some((name) => speakers.has(name.toLowerCase()));
  const by = (generator: string) => all.some((entry) => entry.matchedBy.includes(generator));
  return {
    semantic: true,
    bm25: by("keyword"),
    entity: by("entity"),
    speaker: named,
    date: datesNamed(q.question).length > 0,
    time: asksForTime(q.question),
  };
}

/** Dense and keyword top POOL and the entity generator's cut, then every signal for their union. */
function simulatePools<T extends ScoredEntry>(all: readonly T[]): T[] {
  const top = (signal: "semantic" | "bm25" | "entity") =>
    [...all]
      .filter((entry) => signal === "semantic" || entry.signals[signal] > 0)
      .sort((a, b) => b.signals[signal] - a.signals[signal])
      .slice(0, POOL);
  const union = new Map<string, T>();
  for (const signal of ["semantic", "bm25", "entity"] as const)
    for (const entry of top(signal)) union.set(entry.id, entry);
  return [...union.values()];
}

function rank(q: Collected, weights: FusionWeights): Ranking {
  const ranked = fuseEntries(q.entries, q.active, weights);
  const diaOf = new Map(q.entries.map((entry) => [entry.id, entry.diaId]));
  return { category: q.category, evidence: q.evidence, ranked: ranked.map((c) => diaOf.get(c.id) ?? "?") };
}

/**
 * The same ranking as `rank`, on packed arrays: the weight search scores each question thousands of
 * times. `checkPacked` proves it equal to `fuseEntries` on every question before it is used.
 */
interface Packed {
  readonly size: number;
  /** signal-major: signals[s * size + i]. */
  readonly signals: Float64Array;
  /** Index of the entry's thread, -1 for none. */
  readonly thread: Int32Array;
  readonly threads: number;
  /** Entry order by id, for ties. */
  readonly idOrder: Int32Array;
  readonly evidence: Uint8Array;
  readonly evidenceCount: number;
  readonly activeMask: readonly boolean[];
}

function pack(q: Collected): Packed {
  const size = q.entries.length;
  const signals = new Float64Array(SIGNAL_NAMES.length * size);
  const threadIds = new Map<string, number>();
  const thread = new Int32Array(size);
  const evidence = new Uint8Array(size);
  const wanted = new Set(q.evidence);
  q.entries.forEach((entry, i) => {
    SIGNAL_NAMES.forEach((name, s) => {
      signals[s * size + i] = entry.signals[name];
    });
    if (entry.thread === undefined) thread[i] = -1;
    else {
      if (!threadIds.has(entry.thread)) threadIds.set(entry.thread, threadIds.size);
      thread[i] = threadIds.get(entry.thread) as number;
    }
    evidence[i] = wanted.has(entry.diaId) ? 1 : 0;
  });
  const byId = q.entries.map((entry, i) => ({ id: entry.id, i })).sort((a, b) => (a.id < b.id ? -1 : 1));
  const idOrder = new Int32Array(size);
  byId.forEach(({ i }, order) => {
    idOrder[i] = order;
  });
  return {
    size,
    signals,
    thread,
    threads: threadIds.size,
    idOrder,
    evidence,
    evidenceCount: wanted.size,
    activeMask: SIGNAL_NAMES.map((name) => q.active[name]),
  };
}

/** Indices of the best `k` entries under `weights`, best first, as `fuseEntries` orders them. */
function topIndices(p: Packed, weights: FusionWeights, k: number): number[] {
  let maxPossible = 0;
  SIGNAL_NAMES.forEach((name, s) => {
    if (p.activeMask[s]) maxPossible += weights[name] * (name === "entity" ? 0.5 : 1);
  });
  const base = new Float64Array(p.size);
  for (let i = 0; i < p.size; i++) {
    let raw = 0;
    for (let s = 0; s < SIGNAL_NAMES.length; s++)
      raw += weights[SIGNAL_NAMES[s] as WeightName] * (p.signals[s * p.size + i] as number);
    base[i] = maxPossible === 0 ? 0 : Math.min(raw / maxPossible, 1);
  }
  const best = new Float64Array(p.threads);
  for (let i = 0; i < p.size; i++) {
    const t = p.thread[i] as number;
    if (t >= 0 && (base[i] as number) > (best[t] as number)) best[t] = base[i] as number;
  }
  const final = new Float64Array(p.size);
  for (let i = 0; i < p.size; i++) {
    const t = p.thread[i] as number;
    const b = base[i] as number;
    final[i] = (1 - weights.thread) * b + weights.thread * (t >= 0 ? (best[t] as number) : b);
  }
  const order = Array.from({ length: p.size }, (_, i) => i);
  order.sort(
    (a, b) =>
      (final[b] as number) - (final[a] as number) || (p.idOrder[a] as number) - (p.idOrder[b] as number),
  );
  return order.slice(0, k);
}

function packedRecall(p: Packed, weights: FusionWeights, k: number): number {
  if (p.evidenceCount === 0) return 0;
  let found = 0;
  for (const i of topIndices(p, weights, k)) found += p.evidence[i] as number;
  return found / p.evidenceCount;
}

/** Throws unless the packed scorer ranks every question exactly as `fuseEntries` does. */
function checkPacked(data: readonly Collected[], packed: readonly Packed[], weights: FusionWeights): void {
  data.forEach((q, index) => {
    const expected = fuseEntries(q.entries, q.active, weights)
      .slice(0, 20)
      .map((c) => c.id);
    const actual = topIndices(packed[index] as Packed, weights, 20).map((i) => q.entries[i]?.id);
    if (expected.join() !== actual.join())
      throw new Error(`packed ranking differs from fuseEntries on question ${index}`);
  });
}

const packedCache = new WeakMap<Collected, Packed>();
const packedOf = (q: Collected): Packed => {
  let found = packedCache.get(q);
  if (found === undefined) {
    found = pack(q);
    packedCache.set(q, found);
  }
  return found;
};

const meanRecall = (questions: readonly Collected[], weights: FusionWeights, k = 10) =>
  questions.reduce((sum, q) => sum + packedRecall(packedOf(q), weights, k), 0) /
  Math.max(questions.length, 1);

type WeightName = keyof FusionWeights;
const TUNED: readonly WeightName[] = [...SIGNAL_NAMES.filter((name) => name !== "semantic"), "thread"];
const GRID: Readonly<Record<WeightName, readonly number[]>> = {
  semantic: [1],
  bm25: [0, 0.25, 0.5, 0.75, 1, 1.5, 2],
  entity: [0, 0.5, 1, 2, 4],
  speaker: [0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75],
  date: [0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.75],
  time: [0, 0.05, 0.1, 0.2, 0.3, 0.5],
  thread: [0, 0.1, 0.2, 0.3, 0.4, 0.5],
};

/** Coordinate ascent from the shipped weights: each weight in turn takes its best grid value. */
function tune(questions: readonly Collected[], fixedAtZero: readonly WeightName[] = []): FusionWeights {
  let best: FusionWeights = { ...FUSION_WEIGHTS };
  for (const name of fixedAtZero) best = { ...best, [name]: 0 };
  let bestScore = meanRecall(questions, best);
  for (let pass = 0; pass < 3; pass++) {
    let improved = false;
    for (const name of TUNED) {
      if (fixedAtZero.includes(name)) continue;
      for (const value of GRID[name]) {
        const trial = { ...best, [name]: value };
        const score = meanRecall(questions, trial);
        if (score > bestScore + 1e-9) {
          best = trial;
          bestScore = score;
          improved = true;
        }
      }
    }
    if (!improved) break;
  }
  return best;
}

export interface CrossValidation {
  readonly label: string;
  /** Recall at RECALL_KS of each held-out conversation's questions, ranked with weights tuned on the others. */
  readonly recall: readonly number[];
  readonly folds: readonly { readonly heldOut: string; readonly weights: FusionWeights }[];
}

function crossValidate(
  data: readonly Collected[],
  label: string,
  fixedAtZero: readonly WeightName[] = [],
): CrossValidation {
  const conversations = [...new Set(data.map((q) => q.conversation))];
  const held: Ranking[] = [];
  const folds: { heldOut: string; weights: FusionWeights }[] = [];
  for (const heldOut of conversations) {
    const weights = tune(
      data.filter((q) => q.conversation !== heldOut),
      fixedAtZero,
    );
    folds.push({ heldOut, weights });
    for (const q of data.filter((q) => q.conversation === heldOut)) held.push(rank(q, weights));
  }
  const recall = RECALL_KS.map((k) => held.reduce((sum, r) => sum + recallAt(r, k), 0) / held.length);
  // (`rank` goes through fuseEntries itself: the held-out numbers never rest on the packed scorer.)
  return { label, recall, folds };
}

/** The median of each weight over the folds: every value was chosen without the conversation it is scored on. */
export function medianWeights(folds: readonly { weights: FusionWeights }[]): FusionWeights {
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    const middle = Math.floor(sorted.length / 2);
    return sorted.length % 2 === 1
      ? (sorted[middle] as number)
      : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
  };
  const names = Object.keys(FUSION_WEIGHTS) as WeightName[];
  return Object.fromEntries(
    names.map((name) => [name, median(folds.map((fold) => fold.weights[name]))]),
  ) as unknown as FusionWeights;
}

export interface TuningReport {
  readonly questions: number;
  readonly shipped: { readonly weights: FusionWeights; readonly recall: readonly number[] };
  readonly crossValidated: CrossValidation;
  readonly ablations: readonly CrossValidation[];
  /** Keyword mode, cross-validated the same way, all methods and then each off in turn. */
  readonly keyword: readonly CrossValidation[];
  readonly suggested: FusionWeights;
}

export function runTuning(data: readonly Collected[], progress: (message: string) => void): TuningReport {
  checkPacked(data, data.map(packedOf), FUSION_WEIGHTS);
  checkPacked(data, data.map(packedOf), { ...FUSION_WEIGHTS, bm25: 1.3, thread: 0.45, speaker: 0.7 });
  progress("cross-validating the fusion weights (tune on four conversations, score the fifth)");
  const crossValidated = crossValidate(data, "all methods");
  const ablations: CrossValidation[] = [];
  for (const name of TUNED) {
    progress(`ablation: without ${name}`);
    ablations.push(crossValidate(data, `without ${name}`, [name]));
  }
  // Keyword mode: only what the keyword and context generators found, without the semantic and
  // entity signals — as `mode: "keyword"` searches.
  const keywordOnly = data.map(keywordView);
  progress("keyword mode: cross-validating, then each method off in turn");
  const keywordNone: WeightName[] = ["semantic", "entity"];
  const keyword = [crossValidate(keywordOnly, "keyword mode, all methods", keywordNone)];
  for (const name of TUNED.filter((name) => name !== "entity"))
    keyword.push(crossValidate(keywordOnly, `keyword mode, without ${name}`, [...keywordNone, name]));
  const shipped = RECALL_KS.map((k) => meanRecall(data, FUSION_WEIGHTS, k));
  return {
    questions: data.length,
    shipped: { weights: FUSION_WEIGHTS, recall: shipped },
    crossValidated,
    ablations,
    keyword,
    suggested: medianWeights(crossValidated.folds),
  };
}

function keywordView(q: Collected): Collected {
  return {
    ...q,
    active: { ...q.active, semantic: false, entity: false },
    entries: q.entries
      .filter((entry) => entry.matchedBy.includes("keyword"))
      .map((entry) => ({ ...entry, signals: { ...entry.signals, semantic: 0, entity: 0 } })),
  };
}

const weightsText = (weights: FusionWeights) =>
  (Object.keys(FUSION_WEIGHTS) as WeightName[]).map((name) => `${name} ${weights[name]}`).join(", ");

export function renderTuningReport(report: TuningReport): string {
  const rows = [
    [
      "shipped weights (simulated pools, all questions)",
      ...report.shipped.recall.map((v) => fixed(v, 3)),
      "—",
    ],
    ["cross-validated, all methods", ...report.crossValidated.recall.map((v) => fixed(v, 3)), "—"],
    ...report.ablations.map((ablation) => [
      `cross-validated, ${ablation.label}`,
      ...ablation.recall.map((v) => fixed(v, 3)),
      fixed((ablation.recall[2] ?? 0) - (report.crossValidated.recall[2] ?? 0), 3),
    ]),
  ];
  const table = renderTable(["hybrid ranking", ...RECALL_KS.map((k) => `r@${k}`), "Δ r@10"], rows);
  const [keywordAll] = report.keyword;
  const keywordTable = renderTable(
    ["keyword mode", ...RECALL_KS.map((k) => `r@${k}`), "Δ r@10"],
    report.keyword.map((run, index) => [
      `cross-validated, ${run.label.replace("keyword mode, ", "")}`,
      ...run.recall.map((v) => fixed(v, 3)),
      index === 0 ? "—" : fixed((run.recall[2] ?? 0) - (keywordAll?.recall[2] ?? 0), 3),
    ]),
  );
  const folds = report.crossValidated.folds
    .map((fold) => `- held out ${fold.heldOut}: ${weightsText(fold.weights)}`)
    .join("\n");
  return [
    `Fusion weights, leave-one-conversation-out (${report.questions} questions, pools of ${POOL})`,
    table,
    keywordTable,
    `Weights chosen per fold:\n${folds}`,
    `Median over the folds (each chosen without the conversation it is scored on): ${weightsText(report.suggested)}`,
    `Shipped (src/search/fuse.ts): ${weightsText(report.shipped.weights)}`,
  ].join("\n\n");
}
