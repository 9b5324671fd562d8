/**
 * The one transaction of `add` with `infer: true`: each fact as its decision says — added, left as
 * already known, merged into the memory it restates, or replacing the memory it supersedes — with
 * the protections re-checked on each memory as it is now, and the session's messages.
 *
 * @module
 */

import type { MemoryContext } from "../core/context.js";
import { sameOwner, scopeKey } from "../core/scope.js";
import { createMemoryWriter } from "../core/write/memory-writer.js";
import type { MemoryRow } from "../store/ports/memories.js";
import { contentTerms } from "../text/stem.js";
import { SDK_ACTOR } from "./actor.js";
import { type AddRequest, resultItem, storedMessages, threadOf } from "./add-request.js";
import type { Fact, FactDecision } from "./judge-facts.js";
import type { AddRelation, AddResultItem } from "./types.js";

export interface FactsToWrite {
  readonly request: AddRequest;
  /** Every distinct fact, in extraction order. */
  readonly facts: readonly Fact[];
  /** Each fact's stored twin found before the transaction (same hash), or null. */
  readonly known: readonly (MemoryRow | null)[];
  /** The vector of every fact not known. */
  readonly vectorOf: ReadonlyMap<string, Float32Array>;
  readonly decisions: ReadonlyMap<string, FactDecision>;
}

/**
 * @example
 * const results = await writeFacts(context, { request, facts, known, vectorOf, decisions });
 * results[0]; // => { id, memory, event: "UPDATE", previous_memory: "…", relation: { kind: "supersedes", … } }
 */
export async function writeFacts(context: MemoryContext, input: FactsToWrite): Promise<AddResultItem[]> {
  const { request, facts, known, vectorOf, decisions } = input;
  const { scope, stamps } = request;
  const fresh = facts.filter((_, index) => known[index] === null);
  const thread = threadOf(scope, fresh.length);
  const item = (row: MemoryRow, event: AddResultItem["event"], fact: Fact, relation?: AddRelation) => {
    const result = resultItem(row, event, fact.text, request.metadataRedactions);
    return relation === undefined ? result : { ...result, relation };
  };

  return context.store.transaction(async (tx) => {
    const writer = createMemoryWriter(tx, {
      actor: SDK_ACTOR,
      at: stamps.now,
      embedder: context.embedderStamp,
    });
    const results: AddResultItem[] = [];
    // Where each fact ended up: a later fact that restates an earlier one points at the same memory.
    const landed = new Map<string, string>();
    const updated = new Set<string>();
    let position = thread === undefined ? 0 : await tx.nextThreadPosition(thread, scope);
    const insert = async (fact: Fact, relation?: AddRelation) => {
      const row = await writer.insert({
        ...(thread === undefined ? {} : { thread: { key: thread, position: position++ } }),
        id: fact.row.id,
        text: fact.text,
        scope,
        category: fact.row.category,
        metadata: fact.row.metadata,
        createdAt: stamps.createdAt,
        updatedAt: stamps.updatedAt,
        expiresAt: request.expiresAt,
        embedding: vectorOf.get(fact.row.id) as Float32Array,
      });
      landed.set(fact.row.id, row.id);
      results.push(item(row, "ADD", fact, relation));
    };

    for (const [index, fact] of facts.entries()) {
      // Re-checked inside the transaction: another writer may have stored it since the first look.
      const duplicate = (await tx.findByHash(scope, fact.text.hash)) ?? known[index] ?? null;
      if (duplicate !== null) {
        results.push(item(duplicate, "NONE", fact));
        continue;
      }
      const decision = decisions.get(fact.row.id) ?? { kind: "add" };
      if (decision.kind === "add") {
        await insert(fact, decision.relation);
        continue;
      }
      const current = await tx.getMemory(landed.get(decision.other) ?? decision.other);
      // Gone, or rewritten by another writer since it was judged: the judgement no longer holds.
      // Another owner's memory (judgeFacts looks at this owner's only; this is the last word) is
      // never changed by this request's facts.
      if (current === null || current.hash !== decision.seenHash || !sameOwner(current, scope)) {
        await insert(fact);
        continue;
      }
      if (decision.kind === "restates") {
        landed.set(fact.row.id, current.id);
        results.push(item(current, "NONE", fact, decision.relation));
        continue;
      }
      const refused = protection(context, current, fact, decision.kind, updated);
      if (refused !== undefined) {
        // Kept beside it: a merge refused keeps the fact's details; a supersede refused, the new value.
        const kind = decision.kind === "merges" ? "restates" : "conflicts";
        await insert(fact, { ...decision.relation, kind, reason: `${decision.relation.reason}; ${refused}` });
        continue;
      }
      const text =
        decision.kind === "merges"
          ? decision.merged
          : { prepared: fact.text, embedding: vectorOf.get(fact.row.id) as Float32Array };
      const row = await writer.update(current.id, (now) => ({
        text,
        category: fact.extracted.category ?? now.category,
        metadata: { ...now.metadata, ...fact.row.metadata },
      }));
      if (row === null) {
        await insert(fact);
        continue;
      }
      updated.add(row.id);
      landed.set(fact.row.id, row.id);
      results.push({ ...item(row, "UPDATE", fact, decision.relation), previous_memory: current.text });
    }
    await tx.addMessages(scopeKey(scope), storedMessages(request), context.messagesPerSession);
    return results;
  });
}

/**
 * Why a stored memory may not take a fact's text, or undefined when it may. Never: a pinned memory
 * or one of an immutable category (as in a dream), or one another fact of this add already changed.
 * For a supersede also: a memory newer than the conversation, and one that says more than the value
 * that changed — its words the fact lacks outnumber the fact's own ("lives in Porto and has two
 * cats" is not replaced by "lives in Lisbon": the cats would go).
 */
function protection(
  context: MemoryContext,
  current: MemoryRow,
  fact: Fact,
  kind: "merges" | "supersedes",
  updated: ReadonlySet<string>,
): string | undefined {
  if (current.metadata.pinned === true || current.text.trimStart().startsWith("[PINNED]"))
    return "the memory is pinned, so both are kept";
  if (context.policy.categories[current.category ?? ""]?.immutable === true)
    return `category ${current.category} is immutable, so both are kept`;
  if (updated.has(current.id)) return "another fact of this add already changed it, so both are kept";
  if (kind === "merges") return undefined;
  if (current.updatedAt > fact.row.createdAt)
    return "the memory is newer than the conversation, so both are kept";
  const before = contentTerms(current.text);
  const after = contentTerms(fact.text.text);
  const lost = [...before].filter((term) => !after.has(term));
  const own = [...after].filter((term) => !before.has(term));
  if (lost.length > Math.max(1, own.length))
    return `the memory says more than the value that changed (${lost.join(", ")}), so both are kept`;
  return undefined;
}
