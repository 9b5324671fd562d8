/**
 * `add` with `infer: true`: Mem0's V3 pipeline (`specs/mem0.md` §C.3) — the session's last
 * messages, the stored memories nearest the conversation under integer ids, one extraction call,
 * a batch embed, exact-hash dedupe, insert with entities, the messages kept — plus what Mem0
 * declined to do: every extracted fact is judged against the memories near it with dream's
 * relation judge, so a restatement is not stored twice and a new value for the same thing updates
 * the memory it supersedes (its old text stays in history) instead of contradicting it. Pairs the
 * rules are unsure of go to the model, which may confirm what the rules allow and nothing more.
 *
 * As in the verbatim pipeline, everything that can fail (the LLM, embedding) happens before the one
 * transaction that writes, so a failed add writes nothing.
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import type { MemoryContext } from "../core/context.js";
import { embedTexts } from "../core/embed-texts.js";
import { judgePairs, type PairJudgement } from "../core/judge-pairs.js";
import { type LlmRun, startLlmRun } from "../core/llm-run.js";
import type { FactRelation } from "../core/relate-facts.js";
import { scopeColumns, scopeKey } from "../core/scope.js";
import { policyVisibility } from "../core/visibility.js";
import { createMemoryWriter } from "../core/write/memory-writer.js";
import { type PreparedText, prepareText } from "../core/write/prepare-text.js";
import { isLucidError, LucidError } from "../errors.js";
import { scopeFilter } from "../filters/scope-of-filters.js";
import type { MemoryRow } from "../store/ports/memories.js";
import { SDK_ACTOR } from "./actor.js";
import { type AddRequest, type LoggedMessage, resultItem, storedMessages, threadOf } from "./add-request.js";
import { type ExtractedFact, extractionRequest } from "./extraction-prompt.js";
import type { AddRelation, AddResult, AddResultItem } from "./types.js";

/** Stored memories shown to the model, as Mem0 shows them. */
const EXISTING_SHOWN = 10;

interface Fact {
  readonly extracted: ExtractedFact;
  readonly text: PreparedText;
  /** The row it would be, id included. */
  readonly row: MemoryRow;
}

/** What to do with one fact, decided before the transaction. */
type Decision =
  | { readonly kind: "add" }
  | {
      readonly kind: "restates" | "supersedes";
      readonly other: string;
      /** The other memory's hash when judged: a memory changed since is judged again by nobody, so the fact is added. */
      readonly seenHash: string;
      readonly relation: AddRelation;
    };

export async function addInferred(context: MemoryContext, request: AddRequest): Promise<AddResult> {
  const run = startLlmRun(context, "add");
  if (run === undefined || context.relateFacts === undefined) {
    throw new LucidError("LLM_NOT_CONFIGURED", "add with infer: true needs an LLM, and none is configured.");
  }
  if (request.explicitId !== undefined) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      "An explicit id cannot be used with infer: true: the model decides how many memories the messages hold.",
    );
  }
  const { scope, stamps } = request;
  const filter = scopeFilter(scope);
  const visibleAt = policyVisibility(context, stamps.now);
  const history = (await context.store.listMessages(scopeKey(scope))).slice(-context.messagesPerSession);
  const messages = request.log.map(renderMessage);
  const [conversation] = await embedTexts(context, [messages.join("\n")], "search");
  const shownHits = await context.store.searchDense({
    filter,
    visibleAt,
    vector: conversation as Float32Array,
    k: EXISTING_SHOWN,
  });
  const shown = await rowsInOrder(
    context,
    shownHits.map((hit) => hit.id),
  );

  const answer = await run.complete(
    extractionRequest({
      history: history.map((message) => `${message.role}: ${message.content}`),
      existing: shown.map((row) => row.text),
      messages,
      categories: Object.keys(context.policy.categories),
      observedOn: stamps.createdAt.slice(0, 10),
      today: stamps.now.slice(0, 10),
      aboutAgent: scope.agent_id !== undefined && scope.user_id === undefined,
      customInstructions: run.customInstructions,
    }),
  );
  const facts = uniqueFacts(context, request, answer.json ?? []);
  const known = await Promise.all(facts.map((fact) => context.store.findByHash(scope, fact.text.hash)));
  const fresh = facts.filter((_, index) => known[index] === null);
  const vectors = await embedTexts(
    context,
    fresh.map((fact) => fact.text.text),
    "add",
  );
  const vectorOf = new Map(fresh.map((fact, index) => [fact.row.id, vectors[index] as Float32Array]));
  const decisions = await decide(context, run, { request, fresh, vectorOf, shown });
  const thread = threadOf(scope, fresh.length);

  const results = await context.store.transaction(async (tx) => {
    const writer = createMemoryWriter(tx, {
      actor: SDK_ACTOR,
      at: stamps.now,
      embedder: context.embedderStamp,
    });
    const results: AddResultItem[] = [];
    // Where each fact ended up: a later fact that restates an earlier one points at the same memory.
    const landed = new Map<string, string>();
    const updated = new Set<string>();
    let position = thread === undefined ? 0 : await tx.nextThreadPosition(thread);
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
      results.push(withRelation(resultItem(row, "ADD", fact.text, request.metadataRedactions), relation));
    };
    for (const [index, fact] of facts.entries()) {
      // Re-checked inside the transaction: another writer may have stored it since the first look.
      const duplicate = (await tx.findByHash(scope, fact.text.hash)) ?? known[index] ?? null;
      if (duplicate !== null) {
        results.push(resultItem(duplicate, "NONE", fact.text, request.metadataRedactions));
        continue;
      }
      const decision = decisions.get(fact.row.id) ?? { kind: "add" };
      if (decision.kind === "add") {
        await insert(fact);
        continue;
      }
      const target = landed.get(decision.other) ?? decision.other;
      const current = await tx.getMemory(target);
      // Gone, or rewritten by another writer since it was judged: the judgement no longer holds.
      if (current === null || current.hash !== decision.seenHash) {
        await insert(fact);
        continue;
      }
      if (decision.kind === "restates") {
        landed.set(fact.row.id, current.id);
        results.push(
          withRelation(resultItem(current, "NONE", fact.text, request.metadataRedactions), decision.relation),
        );
        continue;
      }
      const protectedBy = protection(context, current, fact, updated);
      if (protectedBy !== undefined) {
        await insert(fact, {
          ...decision.relation,
          kind: "conflicts",
          reason: `${decision.relation.reason}; ${protectedBy}`,
        });
        continue;
      }
      const row = await writer.update(current.id, (now) => ({
        text: { prepared: fact.text, embedding: vectorOf.get(fact.row.id) as Float32Array },
        category: fact.extracted.category ?? now.category,
        metadata: { ...now.metadata, ...fact.row.metadata },
      }));
      if (row === null) {
        await insert(fact);
        continue;
      }
      updated.add(row.id);
      landed.set(fact.row.id, row.id);
      results.push({
        ...withRelation(resultItem(row, "UPDATE", fact.text, request.metadataRedactions), decision.relation),
        previous_memory: current.text,
      });
    }
    await tx.addMessages(scopeKey(scope), storedMessages(request), context.messagesPerSession);
    return results;
  });
  const { spent } = run;
  return { results, llm: { model: run.model, ...spent } };
}

function renderMessage(message: LoggedMessage): string {
  const content = typeof message.content === "string" ? message.content : message.content.text;
  return `${message.name === undefined ? message.role : `${message.role} (${message.name})`}: ${content}`;
}

async function rowsInOrder(context: MemoryContext, ids: readonly string[]): Promise<MemoryRow[]> {
  const rows = new Map((await context.store.getMemories(ids)).map((row) => [row.id, row]));
  return ids.flatMap((id) => rows.get(id) ?? []);
}

/**
 * The extracted facts as rows to store, one per distinct text. A fact the write path refuses (empty
 * once screened, or too long) is left out, as a fact the model should not have written; the
 * secrets screen applies to it as to any text.
 */
function uniqueFacts(
  context: MemoryContext,
  request: AddRequest,
  extracted: readonly ExtractedFact[],
): Fact[] {
  const facts = new Map<string, Fact>();
  for (const each of extracted) {
    let text: PreparedText;
    try {
      text = prepareText(context, each.text);
    } catch (error) {
      if (isLucidError(error, "EMPTY_TEXT") || isLucidError(error, "TEXT_TOO_LONG")) continue;
      throw error;
    }
    if (facts.has(text.hash)) continue;
    const metadata = {
      ...request.metadata,
      ...(each.attributedTo === undefined ? {} : { attributed_to: each.attributedTo }),
      ...(each.importance === undefined ? {} : { importance: each.importance }),
    };
    facts.set(text.hash, {
      extracted: each,
      text,
      row: {
        ...scopeColumns(request.scope),
        id: randomUUID(),
        text: text.text,
        hash: text.hash,
        category: each.category ?? request.category,
        metadata,
        createdAt: request.stamps.createdAt,
        updatedAt: request.stamps.createdAt,
        expiresAt: request.expiresAt,
      },
    });
  }
  return [...facts.values()];
}

/**
 * Each fresh fact's relation to the stored memories near it (and to the facts before it): dream's
 * rules first; the pairs they are unsure of, to the model.
 */
async function decide(
  context: MemoryContext,
  run: LlmRun,
  input: {
    request: AddRequest;
    fresh: readonly Fact[];
    vectorOf: ReadonlyMap<string, Float32Array>;
    shown: readonly MemoryRow[];
  },
): Promise<Map<string, Decision>> {
  const decisions = new Map<string, Decision>();
  if (input.fresh.length === 0 || context.relateFacts === undefined) return decisions;
  const { scope, stamps } = input.request;
  const filter = scopeFilter(scope);
  const visibleAt = policyVisibility(context, stamps.now);
  const k = context.policy.duplicates.neighbours;
  const near = await Promise.all(
    input.fresh.map((fact) =>
      context.store.searchDense({
        filter,
        visibleAt,
        vector: input.vectorOf.get(fact.row.id) as Float32Array,
        k,
      }),
    ),
  );
  const ids = [...new Set([...input.shown.map((row) => row.id), ...near.flat().map((hit) => hit.id)])];
  const stored = await rowsInOrder(context, ids);
  const vectors = new Map([...(await context.store.getEmbeddings(ids)), ...input.vectorOf]);
  const relations = await context.relateFacts({
    scope,
    now: stamps.now,
    policy: context.policy,
    facts: input.fresh.map((fact) => fact.row),
    stored,
    vectors,
  });
  const textOf = new Map([...stored, ...input.fresh.map((fact) => fact.row)].map((row) => [row.id, row]));
  const unsure: [string, FactRelation][] = [];
  for (const [fact, relation] of relations) {
    const seenHash = textOf.get(relation.other)?.hash;
    if (seenHash === undefined) continue;
    if (relation.kind === "restates" || relation.kind === "supersedes") {
      decisions.set(fact, {
        kind: relation.kind,
        other: relation.other,
        seenHash,
        relation: {
          kind: relation.kind,
          memoryId: relation.other,
          decidedBy: "rules",
          reason: relation.detail,
        },
      });
    } else unsure.push([fact, relation]);
  }
  if (unsure.length === 0) return decisions;
  const judged = await judgePairs(
    run,
    unsure.flatMap(([fact, relation]) => {
      const a = textOf.get(relation.other);
      const b = textOf.get(fact);
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
  const verdicts = new Map(judged.judgements.map((judgement) => [judgement.key, judgement]));
  for (const [fact, relation] of unsure) {
    const kind = allowedBy(relation, verdicts.get(fact));
    if (kind === undefined) continue;
    const judgement = verdicts.get(fact) as PairJudgement;
    decisions.set(fact, {
      kind,
      other: relation.other,
      seenHash: textOf.get(relation.other)?.hash as string,
      relation: {
        kind,
        memoryId: relation.other,
        decidedBy: "llm",
        reason: `${judgement.reason || judgement.verdict} (${judgement.model}, prompt ${judgement.promptHash})`,
      },
    });
  }
  return decisions;
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
 * Why a stored memory may not take a superseding fact's text, or undefined when it may: a pinned
 * memory or an immutable category is never rewritten (as in a dream); a memory newer than the
 * conversation is not replaced by it; one memory takes one new value per add.
 */
function protection(
  context: MemoryContext,
  current: MemoryRow,
  fact: Fact,
  updated: ReadonlySet<string>,
): string | undefined {
  if (current.metadata.pinned === true || current.text.trimStart().startsWith("[PINNED]"))
    return "the memory is pinned, so both are kept";
  if (context.policy.categories[current.category ?? ""]?.immutable === true)
    return `category ${current.category} is immutable, so both are kept`;
  if (current.updatedAt > fact.row.createdAt)
    return "the memory is newer than the conversation, so both are kept";
  if (updated.has(current.id)) return "another fact of this add already updated it, so both are kept";
  return undefined;
}

function withRelation(item: AddResultItem, relation: AddRelation | undefined): AddResultItem {
  return relation === undefined ? item : { ...item, relation };
}
