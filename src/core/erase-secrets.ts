/**
 * Taking a credential out of everything the store keeps besides the memory's text: its history, its
 * scope's session messages, and — when undo is given up for it — the preimages and plans of runs. A
 * dream that removes a credential scrubs history and messages; `purge` and `dream --purge-secrets`
 * go on to the runs.
 *
 * @module
 */

import type { ValueScrub } from "../store/ports/erasure.js";
import type { MemoryRow } from "../store/ports/memories.js";
import type { MemoryPreimage } from "../store/ports/runs.js";
import type { MemoryStoreOps } from "../store/store.js";
import { extractEntities } from "../text/entities.js";
import { contentHash } from "../text/normalise.js";
import { scopeKey, scopeOfRow } from "./scope.js";
import { secretsGuardOf } from "./secrets-guard.js";

/**
 * The credentials the policy's detector finds in `texts`, each with the placeholder the write path
 * puts in its place; longest first, so a value inside another is not replaced before it.
 *
 * @example
 * secretsIn(context, ["token ghp_…"]); // [{ value: "ghp_…", replacement: "[REDACTED:github-token]" }]
 */
export function secretsIn(
  context: Parameters<typeof secretsGuardOf>[0],
  texts: readonly string[],
): ValueScrub[] {
  const { scanner } = secretsGuardOf(context);
  const found = new Map<string, string>();
  for (const text of texts) {
    for (const finding of scanner.find(text)) {
      const value = text.slice(finding.start, finding.end);
      if (!found.has(value)) found.set(value, `[REDACTED:${finding.kind}]`);
    }
  }
  return [...found]
    .map(([value, replacement]) => ({ value, replacement }))
    .sort((a, b) => b.value.length - a.value.length);
}

/**
 * Replaces `values` in the history of `memory` and the messages of its scope: what a dream does for
 * every credential it removes. Runs inside the caller's transaction.
 */
export async function scrubHistoryAndMessages(
  tx: MemoryStoreOps,
  memory: Pick<MemoryRow, "id" | "user_id" | "agent_id" | "app_id" | "run_id">,
  values: readonly ValueScrub[],
): Promise<{ history: number; messages: number }> {
  if (values.length === 0) return { history: 0, messages: 0 };
  return tx.scrubValues(values, {
    memoryIds: [memory.id],
    sessionScopes: [scopeKey(scopeOfRow(memory))],
  });
}

/**
 * Replaces `values` in the preimages and recorded plans of `runIds` (every preimage in which one
 * occurs): what undo would restore loses them. Runs inside the caller's transaction.
 */
export async function purgeFromRuns(
  tx: MemoryStoreOps,
  runIds: readonly string[],
  values: readonly ValueScrub[],
): Promise<{ preimages: number; runPlans: number }> {
  if (values.length === 0 || runIds.length === 0) return { preimages: 0, runPlans: 0 };
  const found = await tx.listPreimages({ runIds, containing: values.map(({ value }) => value) });
  let preimages = 0;
  for (const { runId, before } of found) {
    const scrubbed = scrubPreimage(before, values);
    if (scrubbed === before) continue;
    await tx.replacePreimage(runId, scrubbed);
    preimages++;
  }
  return { preimages, runPlans: await tx.scrubRunPlans(values, runIds) };
}

/**
 * The preimage with `values` replaced in its text and metadata (the same object when none occur).
 * A changed text gets its hash and entities again and loses its vector: undo embeds it anew.
 */
export function scrubPreimage(before: MemoryPreimage, values: readonly ValueScrub[]): MemoryPreimage {
  const text = replaceValues(before.row.text, values);
  const metadata = scrubJson(before.row.metadata, values) as MemoryRow["metadata"];
  if (text === before.row.text && metadata === before.row.metadata) return before;
  if (text === before.row.text) return { ...before, row: { ...before.row, metadata } };
  return {
    row: { ...before.row, text, hash: contentHash(text), metadata },
    embedding: null,
    entities: extractEntities(text),
  };
}

function replaceValues(text: string, values: readonly ValueScrub[]): string {
  let result = text;
  for (const { value, replacement } of values) result = result.replaceAll(value, replacement);
  return result;
}

/** Strings replaced anywhere in a JSON value; the same object when nothing changed. */
function scrubJson(value: unknown, values: readonly ValueScrub[]): unknown {
  if (typeof value === "string") return replaceValues(value, values);
  if (Array.isArray(value)) {
    const items = value.map((item) => scrubJson(item, values));
    return items.some((item, index) => item !== value[index]) ? items : value;
  }
  if (typeof value === "object" && value !== null) {
    const entries = Object.entries(value).map(([key, item]) => [key, scrubJson(item, values)] as const);
    const changed = entries.some(([key, item]) => item !== (value as Record<string, unknown>)[key]);
    return changed ? Object.fromEntries(entries) : value;
  }
  return value;
}

/** Every string in a JSON value (metadata), for the detector. */
export function stringsIn(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(stringsIn);
  return [];
}
