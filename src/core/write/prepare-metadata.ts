/**
 * Metadata as the store will keep it, on the same write path as text: a deep copy (identity keys
 * stripped, so metadata cannot spoof a scope), within the depth and size limits, and every string
 * value in it screened by the secrets policy — a token in `metadata.note` is no more stored than one
 * in the text.
 *
 * @module
 */

import { LucidError } from "../../errors.js";
import type { MemoryContext } from "../context.js";
import { copyMetadata } from "../inputs.js";
import { type Redaction, secretsGuardOf } from "../secrets-guard.js";

/** Deeper than this is refused: nothing a person means is nested so far, and SQLite's JSON parser stops at 1000. */
export const MAX_METADATA_DEPTH = 16;
/** A memory's metadata as JSON, at most. */
export const MAX_METADATA_BYTES = 64 * 1024;

export interface PreparedMetadata {
  readonly metadata: Record<string, unknown>;
  /** Credentials taken out of string values: the key path, the kind and the position in the value. */
  readonly redactions: readonly Redaction[];
}

/**
 * Throws `INVALID_ARGUMENT` for metadata too deep or too large (naming the limit), and
 * `SECRET_REJECTED` naming the key under `onAdd: "reject"`.
 *
 * @example
 * prepareMetadata(context, { note: "deploy key ghp_…" }).metadata; // { note: "deploy key [REDACTED:github-pat]" }
 */
export function prepareMetadata(context: Pick<MemoryContext, "policy">, raw: unknown): PreparedMetadata {
  checkDepth(raw, 0);
  const copy = copyMetadata(raw);
  const bytes = Buffer.byteLength(JSON.stringify(copy), "utf8");
  if (bytes > MAX_METADATA_BYTES) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `metadata is ${bytes} bytes as JSON, over the limit of ${MAX_METADATA_BYTES}. Keep large content in the text, or store a reference.`,
      { details: { bytes, maxBytes: MAX_METADATA_BYTES } },
    );
  }
  const guard = secretsGuardOf(context);
  const redactions: Redaction[] = [];
  const screen = (value: unknown, path: string): unknown => {
    if (typeof value === "string") {
      const screened = guard.screen(value);
      for (const redaction of screened.redactions) redactions.push({ ...redaction, field: path });
      return screened.text;
    }
    if (Array.isArray(value)) return value.map((item, index) => screen(item, `${path}[${index}]`));
    if (typeof value === "object" && value !== null) {
      return Object.fromEntries(
        Object.entries(value).map(([key, item]) => [key, screen(item, `${path}.${key}`)]),
      );
    }
    return value;
  };
  const metadata = screen(copy, "metadata") as Record<string, unknown>;
  return { metadata, redactions };
}

function checkDepth(value: unknown, depth: number): void {
  if (typeof value !== "object" || value === null) return;
  if (depth >= MAX_METADATA_DEPTH) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `metadata is nested more than ${MAX_METADATA_DEPTH} levels deep. Flatten it (dotted keys such as "prefs.color" are filterable).`,
      { details: { maxDepth: MAX_METADATA_DEPTH } },
    );
  }
  for (const child of Object.values(value)) checkDepth(child, depth + 1);
}
