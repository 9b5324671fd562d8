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
import { type LlmRun, startLlmRun } from "../core/llm-run.js";
import { scopeColumns, scopeKey } from "../core/scope.js";
import { secretsGuardOf } from "../core/secrets-guard.js";
import { policyVisibility } from "../core/visibility.js";
import { type PreparedText, prepareText } from "../core/write/prepare-text.js";
import { isLucidError, LucidError } from "../errors.js";
import type { MemoryRow } from "../store/ports/memories.js";
import type { AddRequest, LoggedMessage } from "./add-request.js";
import { type ExtractedFact, extractionRequest } from "./extraction-prompt.js";
import { type Fact, judgeFacts, nearestOfOwner } from "./judge-facts.js";
import { dropInstructions } from "./screen-instructions.js";
import type { AddResult, AddResultItem } from "./types.js";
import { writeFacts } from "./write-facts.js";

/** Stored memories shown to the model, as Mem0 shows them. */
const EXISTING_SHOWN = 10;

/**
 * @example
 * const { results, llm } = await addInferred(context, readAddRequest(context, messages, { userId: "ana", infer: true }));
 * results; // => [{ id, memory: "The user now lives in Lisbon", event: "UPDATE", previous_memory: "The user lives in Porto", … }]
 */
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
  const visibleAt = policyVisibility(context, stamps.now);
  const history = (await context.store.listMessages(scopeKey(scope))).slice(-context.messagesPerSession);
  const messages = request.log.map(renderMessage);
  const [conversation] = await embedTexts(context, [messages.join("\n")], "search");
  // The memories shown are the ones a fact may restate or update, so exactly this owner's: an
  // agent's conversation (`agent_id=main`) is never shown its users' memories.
  const shownHits = await nearestOfOwner(context, {
    scope,
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
  // A fact that reads as an instruction to the agent is the conversation's, not the user's: dropped.
  const { kept, dropped: left } = dropInstructions(answer.json ?? [], (fact) => fact.text);
  // Reported, not stored: each credential in the model's wording redacted all the same.
  const { scanner } = secretsGuardOf(context);
  const dropped = left.map((drop) => ({ ...drop, text: scanner.redact(drop.text).text }));
  const results = await storeFacts(context, request, kept, { run, shown });
  return { results, llm: { model: run.model, ...run.spent }, ...(dropped.length === 0 ? {} : { dropped }) };
}

/**
 * The facts of a request, stored as their relations to the memories near them decide: a twin by
 * hash is not stored again, and the relation judge (the rules; with `run`, the model for the pairs
 * they are unsure of) decides restatements, merges and supersessions. Capture's triage stores the
 * sentences it keeps through here too, without a model.
 */
export async function storeFacts(
  context: MemoryContext,
  request: AddRequest,
  extracted: readonly ExtractedFact[],
  options: { readonly run?: LlmRun | undefined; readonly shown?: readonly MemoryRow[] } = {},
): Promise<AddResultItem[]> {
  const facts = uniqueFacts(context, request, extracted);
  const known = await Promise.all(
    facts.map((fact) => context.store.findByHash(request.scope, fact.text.hash)),
  );
  const fresh = facts.filter((_, index) => known[index] === null);
  const vectors = await embedTexts(
    context,
    fresh.map((fact) => fact.text.text),
    "add",
  );
  const vectorOf = new Map(fresh.map((fact, index) => [fact.row.id, vectors[index] as Float32Array]));
  const decisions = await judgeFacts(context, options.run, {
    request,
    fresh,
    vectorOf,
    shown: options.shown ?? [],
  });
  return writeFacts(context, { request, facts, known, vectorOf, decisions });
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
    // The caller's metadata wins over the model's reading (an importance given with the call).
    const metadata = {
      ...(each.attributedTo === undefined ? {} : { attributed_to: each.attributedTo }),
      ...(each.importance === undefined ? {} : { importance: each.importance }),
      ...request.metadata,
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
