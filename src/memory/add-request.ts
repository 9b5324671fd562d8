/**
 * What both `add` pipelines (verbatim and `infer: true`) read from a call before anything is
 * embedded: the scope, the messages screened for secrets, metadata, category, timestamps and
 * expiry, checked once here.
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import type { MemoryContext } from "../core/context.js";
import { checkId, toIsoTimestamp } from "../core/inputs.js";
import { checkWritableScope, requireScope, type Scope, scopeFromOptions, scopeKey } from "../core/scope.js";
import { type Redaction, secretsGuardOf } from "../core/secrets-guard.js";
import { prepareMetadata } from "../core/write/prepare-metadata.js";
import { type PreparedText, prepareText } from "../core/write/prepare-text.js";
import { LucidError } from "../errors.js";
import { resolveCategory } from "../policy/categories.js";
import type { MemoryRow } from "../store/ports/memories.js";
import { expiryInstant } from "../text/expiry-date.js";
import { toMemoryItem } from "./to-item.js";
import type { AddOptions, AddResultItem, Message } from "./types.js";

/** A message as the session log keeps it: screened; a non-system message's content ready to store. */
export interface LoggedMessage {
  readonly role: string;
  readonly name?: string;
  readonly content: string | PreparedText;
}

export interface AddRequest {
  readonly scope: Scope;
  readonly log: readonly LoggedMessage[];
  /** Metadata to store (category taken out), and what was redacted from it. */
  readonly metadata: Record<string, unknown>;
  readonly metadataRedactions: readonly Redaction[];
  readonly category: string | null;
  readonly stamps: { readonly now: string; readonly createdAt: string; readonly updatedAt: string };
  readonly expiresAt: string | null;
  readonly explicitId: string | undefined;
}

/**
 * @throws LucidError for a missing scope, only system messages, bad metadata, category, timestamps
 *   or id, and (under `secrets.onAdd: "reject"`) a credential.
 * @example
 * const request = readAddRequest(context, [{ role: "user", content: "I moved to Lisbon" }], { userId: "ana" });
 */
export function readAddRequest(
  context: MemoryContext,
  input: string | readonly Message[],
  options: AddOptions,
): AddRequest {
  const scope = requireScope(scopeFromOptions(options), "add");
  // Before anything is embedded; the writer checks it again for every other way in.
  checkWritableScope(scope);
  const raw = toMessages(input);
  if (raw.every((message) => message.role === "system")) {
    throw new LucidError("EMPTY_TEXT", "add got only system messages; there is nothing to remember.");
  }
  // Screened before anything else sees them: the message log, the hash and the embedding input
  // all get the redacted text; a message's role and name are screened too.
  const guard = secretsGuardOf(context);
  const log = raw.map((message): LoggedMessage => {
    const fields = {
      role: guard.screen(message.role).text,
      ...(message.name === undefined ? {} : { name: guard.screen(message.name).text }),
    };
    return message.role === "system"
      ? { ...fields, content: guard.screen(message.content).text }
      : { ...fields, content: prepareText(context, message.content) };
  });
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
  return {
    scope,
    log,
    metadata,
    metadataRedactions: prepared.redactions,
    category,
    stamps: timestamps(context, options),
    expiresAt:
      options.expirationDate === undefined
        ? null
        : expiryInstant(options.expirationDate, "expirationDate", context.timeZone),
    explicitId: options.id === undefined ? undefined : checkId(options.id),
  };
}

/** The session's messages as the store keeps them. */
export function storedMessages(request: AddRequest) {
  return request.log.map((message) => ({
    role: message.role,
    content: typeof message.content === "string" ? message.content : message.content.text,
    name: message.name ?? null,
    createdAt: request.stamps.now,
  }));
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

/**
 * The conversation the new memories belong to: a run's memories form one thread across calls, in
 * the order they were added; otherwise the messages of one call do, when there are several.
 * A memory added alone, outside a run, has no thread (and no neighbours).
 */
export function threadOf(scope: Scope, memories: number): string | undefined {
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

export function resultItem(
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
