/**
 * `add`: store facts verbatim (Mem0's `infer: false`), one memory per non-system message.
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
import { checkId, toIsoTimestamp } from "../core/inputs.js";
import { requireScope, type Scope, scopeFromOptions, scopeKey } from "../core/scope.js";
import { type Redaction, secretsGuardOf } from "../core/secrets-guard.js";
import { createMemoryWriter } from "../core/write/memory-writer.js";
import { prepareMetadata } from "../core/write/prepare-metadata.js";
import { type PreparedText, prepareText } from "../core/write/prepare-text.js";
import { LucidError } from "../errors.js";
import { resolveCategory } from "../policy/categories.js";
import type { MemoryRow } from "../store/ports/memories.js";
import { expiryInstant } from "../text/expiry-date.js";
import { SDK_ACTOR } from "./actor.js";
import { toMemoryItem } from "./to-item.js";
import type { AddOptions, AddResult, AddResultItem, Message } from "./types.js";

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
  const scope = requireScope(scopeFromOptions(options), "add");
  const raw = toMessages(input);
  if (raw.every((message) => message.role === "system")) {
    throw new LucidError("EMPTY_TEXT", "add got only system messages; there is nothing to remember.");
  }
  // Screened before anything else sees them: the message log, the hash and the embedding input
  // all get the redacted text; a message's role and name are screened too.
  const guard = secretsGuardOf(context);
  const log = raw.map((message) => {
    const fields = {
      role: guard.screen(message.role).text,
      ...(message.name === undefined ? {} : { name: guard.screen(message.name).text }),
    };
    return message.role === "system"
      ? { ...fields, content: guard.screen(message.content).text }
      : { ...fields, content: prepareText(context, message.content) };
  });
  const drafts = uniqueDrafts(
    log.flatMap((message) =>
      typeof message.content === "string" ? [] : [{ text: message.content, actorId: message.name }],
    ),
  );
  const prepared = prepareMetadata(context, options.metadata);
  const metadata = prepared.metadata;
  const category = resolveCategory(
    options.category,
    metadata,
    context.policy.categories,
    context.policy.strictCategories,
  );
  // The category lives in its own column; keeping a copy in metadata would let the two disagree.
  delete metadata.category;
  const stamps = timestamps(context, options);
  const expiresAt =
    options.expirationDate === undefined
      ? null
      : expiryInstant(options.expirationDate, "expirationDate", context.timeZone);
  const explicitId = options.id === undefined ? undefined : checkId(options.id);
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
    let position = thread === undefined ? 0 : await tx.nextThreadPosition(thread);
    for (const [index, { text: draft, actorId }] of drafts.entries()) {
      // Re-checked inside the transaction: another writer may have stored it since the first look.
      const duplicate = (await tx.findByHash(scope, draft.hash)) ?? existing[index] ?? null;
      if (duplicate !== null) {
        results.push(resultItem(duplicate, "NONE", draft, prepared.redactions));
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
      results.push(resultItem(row, "ADD", draft, prepared.redactions));
    }
    await tx.addMessages(
      scopeKey(scope),
      log.map((message) => ({
        role: message.role,
        content: typeof message.content === "string" ? message.content : message.content.text,
        name: message.name ?? null,
        createdAt: stamps.now,
      })),
      context.messagesPerSession,
    );
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

/**
 * The conversation the new memories belong to: a run's memories form one thread across calls, in
 * the order they were added; otherwise the messages of one call do, when there are several.
 * A memory added alone, outside a run, has no thread (and no neighbours).
 */
function threadOf(scope: Scope, memories: number): string | undefined {
  if (scope.run_id !== undefined) return `run:${scopeKey(scope)}`;
  return memories > 1 ? `call:${randomUUID()}` : undefined;
}

function timestamps(
  context: MemoryContext,
  options: AddOptions,
): { now: string; createdAt: string; updatedAt: string } {
  const now = context.clock.now().toISOString();
  const stamped = options.timestamp === undefined ? undefined : mem0Timestamp(options.timestamp);
  const given = options.createdAt === undefined ? undefined : toIsoTimestamp(options.createdAt, "createdAt");
  if (stamped !== undefined && given !== undefined && stamped !== given) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      "add got both timestamp and createdAt with different times; give one.",
    );
  }
  const createdAt = stamped ?? given ?? now;
  const updatedAt =
    options.updatedAt === undefined ? createdAt : toIsoTimestamp(options.updatedAt, "updatedAt");
  return { now, createdAt, updatedAt };
}

/** Unix seconds from which a `timestamp` is taken for milliseconds (the year 5138). */
const MAX_UNIX_SECONDS = 1e11;

/** Mem0's `timestamp`: Unix seconds (its platform's unit), or an ISO string or `Date`. */
function mem0Timestamp(value: unknown): string {
  if (typeof value === "number") {
    if (!Number.isFinite(value) || value < 0) {
      throw new LucidError("INVALID_ARGUMENT", `timestamp must be Unix seconds, got ${value}.`);
    }
    // Seconds past 1e11 are the year 5138: what was passed is JavaScript's milliseconds.
    if (value >= MAX_UNIX_SECONDS) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `timestamp ${value} looks like milliseconds; Mem0's timestamp is Unix seconds (${Math.floor(value / 1000)}), or pass a Date.`,
      );
    }
    return toIsoTimestamp(value * 1000, "timestamp");
  }
  if (typeof value === "string" || value instanceof Date) return toIsoTimestamp(value, "timestamp");
  throw new LucidError(
    "INVALID_ARGUMENT",
    `timestamp must be Unix seconds, an ISO string or a Date, got ${typeof value}.`,
  );
}

function resultItem(
  row: MemoryRow,
  event: AddResultItem["event"],
  draft: PreparedText,
  metadataRedactions: readonly Redaction[],
): AddResultItem {
  // An add result has no expiry fields, so the time zone does not matter here.
  const item = toMemoryItem(row);
  // Mem0 reports the event in the item's metadata as well (`metadata.event`).
  const result: AddResultItem = {
    id: item.id,
    memory: item.memory,
    event,
    metadata: { ...item.metadata, event },
  };
  const redactions = [...draft.redactions, ...metadataRedactions];
  if (redactions.length > 0) result.redactions = redactions;
  return result;
}
