/**
 * The first half of the one write path: a text as the store will keep it. Every text that becomes a
 * memory's text — from `add`, `update`, an import, a dream's merge or rewrite, later a sleep
 * promotion — is made here: trimmed, within `maxTextBytes`, screened by the secrets policy, hashed,
 * and its entities found. The writer (`memory-writer.ts`) accepts only texts made here.
 *
 * @module
 */

import type { EntityLink } from "../../store/ports/memories.js";
import { extractEntities } from "../../text/entities.js";
import { contentHash } from "../../text/normalise.js";
import type { MemoryContext } from "../context.js";
import { checkText } from "../inputs.js";
import { type Redaction, secretsGuardOf } from "../secrets-guard.js";

declare const prepared: unique symbol;

export interface PreparedText {
  /** The text to store: trimmed and screened (credentials redacted under `onAdd: "redact"`). */
  readonly text: string;
  readonly hash: string;
  /** Credentials taken out of the given text: kind and position (in the trimmed text), never the value. */
  readonly redactions: readonly Redaction[];
  readonly entities: readonly EntityLink[];
  /** Only `prepareText` makes these. */
  readonly [prepared]: true;
}

/**
 * Throws `EMPTY_TEXT`, `TEXT_TOO_LONG` or `SECRET_REJECTED` (under `onAdd: "reject"`), naming the
 * problem; nothing has been written when it does.
 *
 * @example
 * const draft = prepareText(context, "Deploy key is ghp_…");
 * draft.text; // "Deploy key is [REDACTED:github-token]"
 */
export function prepareText(context: MemoryContext, raw: unknown): PreparedText {
  const { text, redactions } = secretsGuardOf(context).screen(checkText(raw, context.maxTextBytes));
  return {
    text,
    hash: contentHash(text),
    redactions,
    entities: extractEntities(text),
  } as unknown as PreparedText;
}
