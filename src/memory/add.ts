/**
 * `add`: store facts verbatim (Mem0's `infer: false`), one memory per non-system message; with
 * `infer: true`, the LLM pipeline of `add-inferred.ts`.
 *
 * Everything that can fail (validation, the secrets screen, embedding) happens before the one
 * transaction that writes the memories, their history rows and the session's messages, so a failed
 * add writes nothing.
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import type { MemoryContext } from "../core/context.js";
import { embedTexts } from "../core/embed-texts.js";
import { scopeKey } from "../core/scope.js";
import { createMemoryWriter } from "../core/write/memory-writer.js";
import type { PreparedText } from "../core/write/prepare-text.js";
import { LucidError } from "../errors.js";
import { SDK_ACTOR } from "./actor.js";
import { readAddRequest, resultItem, storedMessages, threadOf } from "./add-request.js";
import type { AddOptions, AddResult, AddResultItem, Message } from "./types.js";

export async function addMemories(
  context: MemoryContext,
  input: string | readonly Message[],
  options: AddOptions = {},
): Promise<AddResult> {
  if (options.infer === true && context.llm === undefined) {
    throw new LucidError(
      "LLM_NOT_CONFIGURED",
      "add with infer: true extracts facts with an LLM, and none is configured. Configure one (`llm` in lucid.config.json, or openMemory({ llm })), or pass infer: false (the default) to store the text as given.",
    );
  }
  const request = readAddRequest(context, input, options);
  if (options.infer === true) {
    const { addInferred } = await import("./add-inferred.js");
    return addInferred(context, request);
  }
  const { scope, log, metadata, category, stamps, expiresAt, explicitId } = request;
  const drafts = uniqueDrafts(
    log.flatMap((message) =>
      typeof message.content === "string" ? [] : [{ text: message.content, actorId: message.name }],
    ),
  );
  if (explicitId !== undefined && drafts.length !== 1) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `An explicit id needs exactly one memory, but the input has ${drafts.length}.`,
    );
  }

  const existing = await Promise.all(drafts.map((draft) => context.store.findByHash(scope, draft.text.hash)));
  const fresh = drafts.filter((_, index) => existing[index] === null);
  const vectors = await embedTexts(
    context,
    fresh.map((draft) => draft.text.text),
    "add",
  );
  const vectorOf = new Map(fresh.map((draft, index) => [draft.text.hash, vectors[index] as Float32Array]));
  const thread = threadOf(scope, drafts.length);

  return context.store.transaction(async (tx) => {
    if (explicitId !== undefined && fresh.length > 0 && (await tx.getMemory(explicitId)) !== null) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `A memory with id ${explicitId} already exists. Update it, or import with another id.`,
        { details: { id: explicitId } },
      );
    }
    const writer = createMemoryWriter(tx, {
      actor: SDK_ACTOR,
      at: stamps.now,
      embedder: context.embedderStamp,
    });
    const results: AddResultItem[] = [];
    let position = thread === undefined ? 0 : await tx.nextThreadPosition(thread, scope);
    for (const [index, { text: draft, actorId }] of drafts.entries()) {
      // Re-checked inside the transaction: another writer may have stored it since the first look.
      const duplicate = (await tx.findByHash(scope, draft.hash)) ?? existing[index] ?? null;
      if (duplicate !== null) {
        results.push(resultItem(duplicate, "NONE", draft, request.metadataRedactions));
        continue;
      }
      const embedding = vectorOf.get(draft.hash) as Float32Array;
      const row = await writer.insert({
        ...(thread === undefined ? {} : { thread: { key: thread, position: position++ } }),
        ...(actorId === undefined ? {} : { actorId }),
        id: explicitId ?? randomUUID(),
        text: draft,
        scope,
        category,
        metadata,
        createdAt: stamps.createdAt,
        updatedAt: stamps.updatedAt,
        expiresAt,
        embedding,
      });
      results.push(resultItem(row, "ADD", draft, request.metadataRedactions));
    }
    await tx.addMessages(scopeKey(scope), storedMessages(request), context.messagesPerSession);
    return { results };
  });
}

interface Draft {
  readonly text: PreparedText;
  /** The message's `name`: who said it. */
  readonly actorId: string | undefined;
}

/** One draft per distinct normalised text, in first-seen order. */
function uniqueDrafts(drafts: readonly Draft[]): Draft[] {
  const seen = new Map<string, Draft>();
  for (const draft of drafts) if (!seen.has(draft.text.hash)) seen.set(draft.text.hash, draft);
  return [...seen.values()];
}
