/**
 * What the edges print of stored values. A credential stored under `secrets.onAdd: "allow"`, or
 * before redaction existed, is still in the store (and in a run's preimage, for undo): output masks
 * every detected one as `[MASKED:<kind>]` — the CLI unless `--reveal`, the MCP server always (an
 * agent's context is no place for a credential). Only fields that carry stored content are
 * scanned (a memory's text and metadata, history values, plan and preimage texts), never ids,
 * hashes or dates.
 *
 * @module
 */

import { applyRedactions } from "../secrets/redact.js";
import type { SecretScanner } from "../secrets/types.js";

/** Keys whose string value is stored content. */
// `snippet`: a note hit of a workspace search, read from a Markdown file the agent keeps.
// `before` / `after`: a preimage's text, or `MEMORY.md` before and after a promotion.
const TEXT_KEYS = new Set([
  "memory",
  "text",
  "snippet",
  "previous_value",
  "new_value",
  // Mem0's platform names for a history row's texts (the REST API's history).
  "old_memory",
  "new_memory",
  "before",
  "after",
  "content",
]);
/** Keys under which every string is stored content. */
const CONTENT_KEYS = new Set(["metadata"]);

export interface OutputMask {
  /** `value` with every detected credential in its stored content masked (a copy; the input is untouched). */
  shown<T>(value: T): T;
  /** Credentials masked so far. */
  readonly masked: number;
}

/**
 * A mask over `scanner`'s findings; `null` shows everything as stored (`--reveal`).
 *
 * @example
 * const mask = createOutputMask(secretsGuardOf({ policy }).scanner);
 * print(render(mask.shown(results)));
 * if (mask.masked > 0) note("--reveal shows them");
 */
export function createOutputMask(scanner: SecretScanner | null): OutputMask {
  let masked = 0;
  const maskText = (text: string): string => {
    if (scanner === null) return text;
    const findings = scanner.find(text);
    masked += findings.length;
    return applyRedactions(text, findings, "MASKED");
  };
  const walk = (value: unknown, content: boolean): unknown => {
    if (typeof value === "string") return content ? maskText(value) : value;
    if (Array.isArray(value)) return value.map((item) => walk(item, content));
    if (!isPlainObject(value)) return value;
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        walk(item, content || CONTENT_KEYS.has(key) || (TEXT_KEYS.has(key) && typeof item === "string")),
      ]),
    );
  };
  return {
    shown: <T>(value: T): T => (scanner === null ? value : (walk(value, false) as T)),
    get masked() {
      return masked;
    },
  };
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (typeof value !== "object" || value === null) return false;
  const prototype = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}
