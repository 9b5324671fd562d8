/**
 * `add`: store facts verbatim (Mem0's `infer: false`), one memory per non-system message.
 *
 * Everything that can fail (validation, embedding) happens before the one transaction that writes
 * the memories, their history rows and the session's messages, so a failed add writes nothing.
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import { LucidError } from "../errors.js";
import { resolveCategory } from "../policy/categories.js";
import type { MemoryRow, NewMemory } from "../store/store.js";
import { extractEntities } from "../text/entities.js";
import { contentHash } from "../text/normalise.js";
import type { MemoryContext } from "./context.js";
import { embedTexts } from "./embed-texts.js";
import { checkId, checkText, copyMetadata, toIsoTimestamp } from "./inputs.js";
import { requireScopeForAdd, scopeColumns, scopeFromOptions, sessionScopeKey } from "./scope.js";
import type { Redaction } from "./secrets-guard.js";
import { toMemoryItem } from "./to-item.js";
import type { AddOptions, AddResult, AddResultItem, Message } from "./types.js";

/** Who made a change, as history records it. */
export const SDK_ACTOR = "user";

interface Draft {
  readonly text: string;
  readonly hash: string;
  readonly redactions: readonly Redaction[];
}

export async function addMemories(
  context: MemoryContext,
  input: string | readonly Message[],
  options: AddOptions = {},
): Promise<AddResult> {
  if (options.infer === true) {
    throw new LucidError(
      "LLM_NOT_CONFIGURED",
      "add with infer: true extracts facts with an LLM, and none is configured. Pass infer: false (the default) to store the text as given.",
    );
  }
  const scope = scopeFromOptions(options);
  requireScopeForAdd(scope);
  const raw = toMessages(input);
  if (raw.every((message) => message.role === "system")) {
    throw new LucidError("EMPTY_TEXT", "add got only system messages; there is nothing to remember.");
  }
  // Screened before anything else sees them: the message log, the hash and the embedding input
  // all get the redacted text.
  const screened = raw.map((message) =>
    message.role === "system"
      ? { message: { ...message, content: context.secrets.screen(message.content).text }, redactions: [] }
      : screenMessage(context, message),
  );
  const messages = screened.map((entry) => entry.message);
  const drafts = uniqueDrafts(screened.filter((entry) => entry.message.role !== "system"));
  const metadata = copyMetadata(options.metadata);
  const category = resolveCategory(options.category, metadata, context.categories);
  // The category lives in its own column; keeping a copy in metadata would let the two disagree.
  delete metadata.category;
  const stamps = timestamps(context, options);
  const expiresAt =
    options.expirationDate === undefined ? null : toIsoTimestamp(options.expirationDate, "expirationDate");
  const explicitId = options.id === undefined ? undefined : checkId(options.id);
  if (explicitId !== undefined && drafts.length !== 1) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `An explicit id needs exactly one memory, but the input has ${drafts.length}.`,
    );
  }

  const existing = await Promise.all(drafts.map((draft) => context.store.findByHash(scope, draft.hash)));
  const fresh = drafts.filter((_, index) => existing[index] === null);
  const vectors = await embedTexts(
    context,
    fresh.map((draft) => draft.text),
    "add",
  );

  return context.store.transaction(async (tx) => {
    if (explicitId !== undefined && fresh.length > 0 && (await tx.getMemory(explicitId)) !== null) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `A memory with id ${explicitId} already exists. Update it, or import with another id.`,
        {
          details: { id: explicitId },
        },
      );
    }
    const results: AddResultItem[] = [];
    let freshIndex = 0;
    for (const [index, draft] of drafts.entries()) {
      // Re-checked inside the transaction: another writer may have stored it since the first look.
      const duplicate = existing[index] ?? (await tx.findByHash(scope, draft.hash));
      if (duplicate !== null) {
        if (existing[index] === null) freshIndex++;
        results.push(resultItem(duplicate, "NONE", draft.redactions));
        continue;
      }
      const memory: NewMemory = {
        id: explicitId ?? randomUUID(),
        text: draft.text,
        hash: draft.hash,
        ...scopeColumns(scope),
        category,
        metadata,
        createdAt: stamps.createdAt,
        updatedAt: stamps.updatedAt,
        expiresAt,
        embedding: vectors[freshIndex++] as Float32Array,
        entities: extractEntities(draft.text),
      };
      await tx.insertMemory(memory);
      await tx.addHistory({
        memoryId: memory.id,
        action: "ADD",
        previousValue: null,
        newValue: memory.text,
        actor: SDK_ACTOR,
        createdAt: stamps.now,
      });
      results.push(resultItem(memory, "ADD", draft.redactions));
    }
    const log = messages.map((message) => ({
      role: message.role,
      content: message.content,
      name: message.name ?? null,
      createdAt: stamps.now,
    }));
    await tx.addMessages(sessionScopeKey(scope), log, context.messagesPerSession);
    return { results };
  });
}

function toMessages(input: string | readonly Message[]): readonly Message[] {
  if (typeof input === "string") return [{ role: "user", content: input }];
  if (!Array.isArray(input) || input.length === 0) {
    throw new LucidError(
      "EMPTY_TEXT",
      "add needs a string or a non-empty list of messages ({ role, content }).",
    );
  }
  return input.map((message, index) => {
    if (typeof message !== "object" || message === null || typeof message.content !== "string") {
      throw new LucidError("INVALID_ARGUMENT", `Message ${index} must be an object with a string content.`);
    }
    return {
      role: typeof message.role === "string" ? message.role : "user",
      content: message.content,
      ...(message.name ? { name: message.name } : {}),
    };
  });
}

/** A message's text checked and screened for secrets (positions refer to the trimmed text). */
function screenMessage(
  context: MemoryContext,
  message: Message,
): { message: Message; redactions: Redaction[] } {
  const checked = checkText(message.content, context.maxTextBytes);
  const { text, redactions } = context.secrets.screen(checked);
  return { message: { ...message, content: text }, redactions };
}

/** One draft per distinct normalised text, in first-seen order. */
function uniqueDrafts(entries: readonly { message: Message; redactions: Redaction[] }[]): Draft[] {
  const seen = new Map<string, Draft>();
  for (const { message, redactions } of entries) {
    const hash = contentHash(message.content);
    if (!seen.has(hash)) seen.set(hash, { text: message.content, hash, redactions });
  }
  return [...seen.values()];
}

function timestamps(
  context: MemoryContext,
  options: AddOptions,
): { now: string; createdAt: string; updatedAt: string } {
  const now = context.clock.now().toISOString();
  const createdAt = options.createdAt === undefined ? now : toIsoTimestamp(options.createdAt, "createdAt");
  const updatedAt =
    options.updatedAt === undefined ? createdAt : toIsoTimestamp(options.updatedAt, "updatedAt");
  return { now, createdAt, updatedAt };
}

function resultItem(
  row: MemoryRow,
  event: AddResultItem["event"],
  redactions: readonly Redaction[],
): AddResultItem {
  const item = toMemoryItem(row);
  const result: AddResultItem = { id: item.id, memory: item.memory, event, metadata: item.metadata };
  if (redactions.length > 0) result.redactions = [...redactions];
  return result;
}
