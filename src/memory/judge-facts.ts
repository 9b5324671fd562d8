/**
 * How each fact `add` extracted relates to the memories already stored, decided before anything is
 * written: dream's relation judge first (`context.relateFacts`, the duplicate and contradiction
 * rules a dream applies), and the pairs it is unsure of to the model, whose verdict may only do
 * what the rules allow.
 *
 * @module
 */

import type { MemoryContext } from "../core/context.js";
import { embedTexts } from "../core/embed-texts.js";
import { judgePairs, type PairJudgement } from "../core/judge-pairs.js";
import type { LlmRun } from "../core/llm-run.js";
import type { FactRelation } from "../core/relate-facts.js";
import { type Scope, sameOwner } from "../core/scope.js";
import { policyVisibility } from "../core/visibility.js";
import { type PreparedText, prepareText } from "../core/write/prepare-text.js";
import { isLucidError } from "../errors.js";
import { ownerFilter, scopeFilter } from "../filters/scope-of-filters.js";
import type { MemoryRow, Visibility } from "../store/ports/memories.js";
import type { DenseHit } from "../store/ports/search.js";
import { extractEntities } from "../text/entities.js";
import { contentTerms, stemWord } from "../text/stem.js";
import type { AddRequest } from "./add-request.js";
import type { ExtractedFact } from "./extraction-prompt.js";
import type { AddRelation } from "./types.js";

/** An extracted fact, ready to store. */
export interface Fact {
  readonly extracted: ExtractedFact;
  readonly text: PreparedText;
  /** The row it would be, id included. */
  readonly row: MemoryRow;
}

/**
 * What to do with one fact: add it; nothing (`restates`: already stored); merge its details into
 * the memory it restates (`merges`: the pair's merged text); or replace that memory's text with it
 * (`supersedes`). `seenHash` is the other memory's hash when judged: one changed since is not
 * touched by a verdict about what it was.
 */
export type FactDecision =
  | { readonly kind: "add"; readonly relation?: AddRelation }
  | {
      readonly kind: "restates" | "supersedes";
      readonly other: string;
      readonly seenHash: string;
      readonly relation: AddRelation;
    }
  | {
      readonly kind: "merges";
      readonly other: string;
      readonly seenHash: string;
      readonly relation: AddRelation;
      readonly merged: { readonly prepared: PreparedText; readonly embedding: Float32Array };
    };

/**
 * Each fresh fact's decision, by its row id (absent: add it).
 *
 * @example
 * const decisions = await judgeFacts(context, run, { request, fresh, vectorOf, shown });
 * decisions.get(fresh[0].row.id); // => { kind: "supersedes", other: "m7", seenHash: "…", relation: { … } }
 */
export async function judgeFacts(
  context: MemoryContext,
  /** None: the rules decide alone, and a pair they are unsure of is added. */
  run: LlmRun | undefined,
  input: {
    readonly request: AddRequest;
    readonly fresh: readonly Fact[];
    readonly vectorOf: ReadonlyMap<string, Float32Array>;
    /** The stored memories the extraction call was shown. */
    readonly shown: readonly MemoryRow[];
  },
): Promise<Map<string, FactDecision>> {
  const decisions = new Map<string, FactDecision>();
  if (input.fresh.length === 0 || context.relateFacts === undefined) return decisions;
  const { scope, stamps } = input.request;
  const visibleAt = policyVisibility(context, stamps.now);
  const k = context.policy.duplicates.neighbours;
  const near = await Promise.all(
    input.fresh.map((fact) =>
      nearestOfOwner(context, {
        scope,
        visibleAt,
        vector: input.vectorOf.get(fact.row.id) as Float32Array,
        k,
      }),
    ),
  );
  const ids = [...new Set([...input.shown.map((row) => row.id), ...near.flat().map((hit) => hit.id)])];
  const storedRows = new Map((await context.store.getMemories(ids)).map((row) => [row.id, row]));
  // `shown` comes from the caller: a row of another owner in it is left out here too.
  const stored = ids.flatMap((id) => storedRows.get(id) ?? []).filter((row) => sameOwner(row, scope));
  const vectors = new Map([...(await context.store.getEmbeddings(ids)), ...input.vectorOf]);
  const relations = await context.relateFacts({
    scope,
    now: stamps.now,
    policy: context.policy,
    facts: input.fresh.map((fact) => fact.row),
    stored,
    vectors,
  });
  const rowOf = new Map([...stored, ...input.fresh.map((fact) => fact.row)].map((row) => [row.id, row]));

  const found: {
    fact: string;
    relation: FactRelation;
    kind: "restates" | "supersedes";
    by: AddRelation["decidedBy"];
    reason: string;
  }[] = [];
  const unsure: [string, FactRelation][] = [];
  for (const [fact, relation] of relations) {
    if (relation.kind === "restates" || relation.kind === "supersedes")
      found.push({ fact, relation, kind: relation.kind, by: "rules", reason: relation.detail });
    else unsure.push([fact, relation]);
  }
  const judged = await judgeUnsure(run, unsure, rowOf);
  for (const [fact, relation] of unsure) {
    const judgement = judged.get(fact);
    const kind = allowedBy(relation, judgement);
    if (kind === undefined || judgement === undefined) continue;
    const reason = `${judgement.reason || judgement.verdict} (${judgement.model}, prompt ${judgement.promptHash})`;
    found.push({ fact, relation, kind, by: "llm", reason });
  }

  // A restatement that adds a detail merges it in: its merged text is embedded with the others.
  const keep = new Set<string>();
  const merges = found.flatMap((each) => {
    const other = rowOf.get(each.relation.other);
    const merged =
      each.kind === "restates"
        ? mergedText(context, each.relation, each.by, rowOf.get(each.fact), other)
        : undefined;
    if (merged === "keep") keep.add(each.fact);
    return merged === undefined || merged === "keep" ? [] : [{ fact: each.fact, merged }];
  });
  const mergedVectors = await embedTexts(
    context,
    merges.map((each) => each.merged.text),
    "update",
  );
  const mergedOf = new Map(
    merges.map((each, index) => [
      each.fact,
      { prepared: each.merged, embedding: mergedVectors[index] as Float32Array },
    ]),
  );

  for (const { fact, relation, kind, by, reason } of found) {
    const seenHash = rowOf.get(relation.other)?.hash;
    if (seenHash === undefined) continue;
    if (keep.has(fact)) {
      // Added beside the memory it restates; the next dream sees the pair.
      const why = `${reason}; merged, the fact would lose words of its own, so it is kept beside it`;
      decisions.set(fact, {
        kind: "add",
        relation: { kind: "restates", memoryId: relation.other, decidedBy: by, reason: why },
      });
      continue;
    }
    const merged = mergedOf.get(fact);
    const base = { other: relation.other, seenHash };
    if (merged !== undefined) {
      decisions.set(fact, {
        kind: "merges",
        ...base,
        merged,
        relation: { kind: "merges", memoryId: relation.other, decidedBy: by, reason },
      });
    } else {
      decisions.set(fact, {
        kind,
        ...base,
        relation: { kind, memoryId: relation.other, decidedBy: by, reason },
      });
    }
  }
  return decisions;
}

/**
 * The `k` memories nearest `vector` of exactly `scope`'s owner (the memories its facts are stored
 * beside): a fact is judged only against those, since `agent_id=main` also holds alice's and bob's
 * memories, which an agent's fact must never restate, merge into or supersede.
 *
 * The scope's own search comes first, as a store narrows it best: SQLite runs it as a KNN inside the
 * scope's vector partition, while an `eq null` condition makes it scan every row (about 5× slower:
 * 17–30 against 85–130 ms a query at 20k memories of one user, 384-d, measured while writing this).
 * When none of its hits is another owner's, or it found fewer than `k` (every memory of the scope),
 * its hits of the owner are the owner's nearest — the owner's memories are a part of the scope's;
 * otherwise the owner is searched alone (`ownerFilter`).
 *
 * @example
 * const hits = await nearestOfOwner(context, { scope: { agent_id: "main" }, visibleAt, vector, k: 10 });
 * // none of user_id=bob agent_id=main, however near
 */
export async function nearestOfOwner(
  context: MemoryContext,
  query: {
    readonly scope: Scope;
    readonly visibleAt: Visibility;
    readonly vector: Float32Array;
    readonly k: number;
  },
): Promise<DenseHit[]> {
  const { scope, ...dense } = query;
  const hits = await context.store.searchDense({ ...dense, filter: scopeFilter(scope) });
  const rows = new Map(
    (await context.store.getMemories(hits.map((hit) => hit.id))).map((row) => [row.id, row]),
  );
  const own = hits.filter((hit) => {
    const row = rows.get(hit.id);
    return row !== undefined && sameOwner(row, scope);
  });
  if (own.length === hits.length || hits.length < query.k) return own;
  return context.store.searchDense({ ...dense, filter: ownerFilter(scope) });
}

/** The model's verdict on each pair the rules were unsure of, by fact id. */
async function judgeUnsure(
  run: LlmRun | undefined,
  unsure: readonly [string, FactRelation][],
  rowOf: ReadonlyMap<string, MemoryRow>,
): Promise<Map<string, PairJudgement>> {
  if (unsure.length === 0 || run === undefined) return new Map();
  const judged = await judgePairs(
    run,
    unsure.flatMap(([fact, relation]) => {
      const a = rowOf.get(relation.other);
      const b = rowOf.get(fact);
      return a === undefined || b === undefined
        ? []
        : [
            {
              key: fact,
              a: { text: a.text, at: a.updatedAt },
              b: { text: b.text, at: b.createdAt },
              hint: relation.detail,
              wantsWording: false,
            },
          ];
    }),
  );
  return new Map(judged.judgements.map((judgement) => [judgement.key, judgement]));
}

/**
 * What a verdict may do with a pair the rules were unsure of: a possible duplicate the model calls
 * the same is a restatement, and one it says replaces the older is a supersede; a possible conflict
 * may only become a supersede — the rules saw a differing value, so dropping the fact as "the
 * same" could lose it.
 */
function allowedBy(
  relation: FactRelation,
  judgement: PairJudgement | undefined,
): "restates" | "supersedes" | undefined {
  if (judgement?.verdict === "replaces") return "supersedes";
  if (judgement?.verdict === "same" && relation.kind === "possible-duplicate") return "restates";
  return undefined;
}

/**
 * What a restatement does to the memory it restates: nothing (`undefined`: not stored again), the
 * pair's merged text (merged in), or `"keep"` (added beside it: the merged text would lose words of
 * the fact).
 *
 * - Decided by the rules alone: any content word of the fact the memory lacks must survive, so the
 *   fact is merged in when the merged text keeps all of them and added beside when it does not;
 *   only a fact with nothing of its own is not stored. Losing what the user said is worse than a
 *   duplicate, which the next dream merges.
 * - Confirmed by the model ("keeping one loses nothing"): merged in when the fact says everything
 *   the memory says and more, or has a detail the memory lacks (a number, a name: "every morning
 *   at 6", "every Thursday"); otherwise a rewording, not stored again.
 *
 * A merged text that cannot be stored leaves the fact to be added as it is.
 */
function mergedText(
  context: MemoryContext,
  relation: FactRelation,
  by: AddRelation["decidedBy"],
  fact: MemoryRow | undefined,
  other: MemoryRow | undefined,
): PreparedText | "keep" | undefined {
  if (fact === undefined || other === undefined) return undefined;
  const said = contentTerms(other.text);
  const saying = contentTerms(fact.text);
  const own = [...saying].filter((term) => !said.has(term));
  if (by === "rules") {
    if (own.length === 0) return undefined;
    if (relation.merged === undefined) return "keep";
    const merged = contentTerms(relation.merged);
    if (!own.every((term) => merged.has(term))) return "keep";
  } else {
    const covers = own.length > 0 && [...said].every((term) => saying.has(term));
    if (!covers && detailsOf(fact.text).every((detail) => detailsOf(other.text).includes(detail)))
      return undefined;
    if (relation.merged === undefined) return "keep";
  }
  try {
    const prepared = prepareText(context, relation.merged);
    return prepared.hash === other.hash ? undefined : prepared;
  } catch (error) {
    if (isLucidError(error, "EMPTY_TEXT") || isLucidError(error, "TEXT_TOO_LONG")) return "keep";
    throw error;
  }
}

/** A text's discriminating details: its numbers and names (entities, capitalised words past the first), by stem. */
function detailsOf(text: string): string[] {
  const numbers = text.match(/\d+(?:[.,:]\d+)*/g) ?? [];
  const names = extractEntities(text).map((entity) => entity.key);
  const capitalised = (text.match(/(?<=\S\s+)\p{Lu}[\p{L}\p{N}]*/gu) ?? []).map((word) => word.toLowerCase());
  return [...new Set([...numbers, ...[...names, ...capitalised].map(stemWord)])];
}
