/**
 * Duplicates: the same fact in different words, proposed as one merge per group.
 *
 * A pair is a candidate only when the vector index returns it as a neighbour with similarity ≥
 * `policy.duplicates.minSimilarity` (never all pairs: a scope may hold 100k memories). Sentence
 * vectors score "runs 5 km" and "runs 10 km" higher than most paraphrases, so a candidate must
 * also be worded alike (content-word overlap, shared names) and is refused outright when a
 * discriminating detail differs (see `similarity/compare.ts`) or when the two contradict each other
 * (the contradiction analyser reports that pair instead). Groups are a union-find over confirmed
 * pairs that never joins two memories refused against each other.
 *
 * Never merged: pinned memories, memories of an immutable category, and memories of two different
 * categories. An uncategorised memory may join a categorised group (the category was simply not
 * recorded), but one group never spans two categories.
 *
 * @module
 */

import { cosine } from "../../embed/cosine.js";
import type { Policy } from "../../policy/policy.js";
import type { MergeAction } from "../plan.js";
import type { DreamSnapshot, SnapshotMemory } from "../snapshot.js";
import {
  comparePair,
  detailRefusals,
  lexicalOverlap,
  MIN_OVERLAP,
  MIN_SHARED_TERMS,
  type PairComparison,
} from "./similarity/compare.js";
import { snapshotFeatures, snapshotTermWeights } from "./similarity/features.js";
import { type Edge, groupEdges } from "./similarity/groups.js";
import { composeMerge } from "./similarity/merge-text.js";

/** See `GroupOptions.maxSize`: restatements of one fact come in twos and threes. */
const MAX_GROUP_SIZE = 8;

interface Confirmed {
  readonly similarity: number;
  readonly comparison: PairComparison;
}

/**
 * Proposes merges for groups of memories that state the same fact.
 *
 * @example
 * const merges = analyseDuplicates(snapshot, policy);
 * // => [{ kind: "merge", ids: ["m2", "m1"], keep: "m2",
 * //       text: "Maria has been vegetarian since 2018.", why: { rule: "duplicate", … } }]
 */
export function analyseDuplicates(snapshot: DreamSnapshot, policy: Policy): readonly MergeAction[] {
  const featuresOf = snapshotFeatures(snapshot);
  const weight = snapshotTermWeights(snapshot);
  const { minSimilarity, neighbours: k } = policy.duplicates;
  const mergeable = (memory: SnapshotMemory | undefined): memory is SnapshotMemory =>
    memory !== undefined && !memory.pinned && policy.categories[memory.category ?? ""]?.immutable !== true;

  const comparisons = new Map<string, PairComparison>();
  const compare = (a: string, b: string): PairComparison | undefined => {
    const key = pairKey(a, b);
    let result = comparisons.get(key);
    if (result === undefined) {
      const fa = featuresOf(a);
      const fb = featuresOf(b);
      if (fa === undefined || fb === undefined) return undefined;
      result = comparePair(fa, fb, weight);
      comparisons.set(key, result);
    }
    return result;
  };

  // Most neighbours above the vector threshold share a topic, not the wording: drop them before
  // the full comparison, which reads names with the part-of-speech tagger.
  const wordedAlike = (a: string, b: string) => {
    const fa = featuresOf(a);
    const fb = featuresOf(b);
    if (fa === undefined || fb === undefined) return false;
    const { overlap, shared } = lexicalOverlap(fa, fb, weight);
    return overlap >= MIN_OVERLAP && shared.length >= MIN_SHARED_TERMS;
  };

  // A differing number, time, value or state refuses the pair whatever its names say: found from
  // the details, it spares the comparison its tagger run.
  const differInDetails = (a: string, b: string) => {
    const fa = featuresOf(a);
    const fb = featuresOf(b);
    return fa === undefined || fb === undefined || detailRefusals(fa, fb).length > 0;
  };

  const confirmed = new Map<string, Confirmed>();
  const edges: Edge[] = [];
  for (const memory of snapshot.memories) {
    if (!mergeable(memory)) continue;
    for (const neighbour of snapshot.neighbours(memory.id, k)) {
      if (neighbour.similarity < minSimilarity) break;
      const other = snapshot.byId(neighbour.id);
      if (!mergeable(other) || !categoriesCompatible(memory, other)) continue;
      const [a, b] = memory.id < other.id ? [memory.id, other.id] : [other.id, memory.id];
      const key = pairKey(a, b);
      if (confirmed.has(key) || !wordedAlike(a, b) || differInDetails(a, b)) continue;
      const comparison = compare(a, b);
      if (comparison === undefined || !comparison.agrees || comparison.refusals.length > 0) continue;
      confirmed.set(key, { similarity: neighbour.similarity, comparison });
      edges.push({ a, b, weight: neighbour.similarity });
    }
  }

  // Every two members of a group must be close in meaning and not refused, not just linked
  // through a chain: a hub that resembles two different facts must not fuse them.
  const groups = groupEdges(edges, {
    maxSize: MAX_GROUP_SIZE,
    compatible: (a, b) => {
      const ma = snapshot.byId(a);
      const mb = snapshot.byId(b);
      if (ma === undefined || mb === undefined || !categoriesCompatible(ma, mb)) return false;
      if (!confirmed.has(pairKey(a, b)) && similarity(snapshot, a, b) < minSimilarity) {
        return false;
      }
      return (compare(a, b)?.refusals.length ?? 1) === 0;
    },
  });
  return groups.flatMap((ids) => {
    const action = toMerge(ids, featuresOf, confirmed);
    return action === undefined ? [] : [action];
  });
}

/** One key per unordered pair. */
function pairKey(a: string, b: string): string {
  return a < b ? `${a}\u0000${b}` : `${b}\u0000${a}`;
}

function similarity(snapshot: DreamSnapshot, a: string, b: string): number {
  const x = snapshot.embedding(a);
  const y = snapshot.embedding(b);
  return x === undefined || y === undefined || x.length !== y.length ? 0 : cosine(x, y);
}

/** Same category, or one of the two uncategorised: never two categories in one merge. */
export function categoriesCompatible(a: SnapshotMemory, b: SnapshotMemory): boolean {
  return a.category === null || b.category === null || a.category === b.category;
}

function toMerge(
  ids: readonly string[],
  featuresOf: ReturnType<typeof snapshotFeatures>,
  confirmed: ReadonlyMap<string, Confirmed>,
): MergeAction | undefined {
  const members = ids.flatMap((id) => featuresOf(id) ?? []);
  // Two members of one group with different categories would leave the merged memory's category
  // ambiguous; the compatibility check pairs each with its group, so recheck the group as a whole.
  const categories = new Set(members.flatMap((member) => member.memory.category ?? []));
  if (members.length < 2 || categories.size > 1) return undefined;
  const { base, text } = composeMerge(members);
  const others = members.filter((member) => member !== base);
  // Ids are sorted, so each confirmed pair inside the group is found under its "a\u0000b" key.
  const pairs = ids.flatMap((a, i) =>
    ids.slice(i + 1).flatMap((b) => {
      const pair = confirmed.get(`${a}\u0000${b}`);
      return pair === undefined ? [] : [[`${a}\u0000${b}`, pair] as const];
    }),
  );
  const similarities = pairs.map(([, pair]) => pair.similarity);
  const overlaps = pairs.map(([, pair]) => pair.comparison.overlap);
  const sharedTerms = intersect(members.map((member) => [...member.terms]));
  const sharedEntities = [...new Set(pairs.flatMap(([, pair]) => pair.comparison.sharedEntities))].sort();
  const similarity = round(Math.min(...similarities));
  const overlap = round(Math.min(...overlaps));
  return Object.freeze({
    kind: "merge",
    ids: Object.freeze([base.memory.id, ...others.map((other) => other.memory.id)]),
    keep: base.memory.id,
    text,
    why: Object.freeze({
      rule: "duplicate",
      detail:
        `${members.length} memories state the same fact: similarity ≥ ${similarity}, content-word overlap ≥ ${overlap}` +
        (sharedEntities.length > 0 ? `, both name ${sharedEntities.join(", ")}` : ""),
      evidence: Object.freeze({
        similarity,
        overlap,
        sharedTerms: Object.freeze(sharedTerms),
        sharedEntities: Object.freeze(sharedEntities),
        pairs: Object.freeze(
          pairs.map(
            ([key, pair]) =>
              `${key.replace("\u0000", " ~ ")}: ${round(pair.similarity)} / ${round(pair.comparison.overlap)}`,
          ),
        ),
      }),
    }),
  });
}

function intersect(lists: readonly (readonly string[])[]): string[] {
  const [first, ...rest] = lists;
  if (first === undefined) return [];
  return first.filter((item) => rest.every((list) => list.includes(item))).sort();
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}
