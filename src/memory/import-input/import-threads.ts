/**
 * Threads in an import. A thread is one scope's conversation: the store takes a memory's
 * neighbours only from its own scope (all four keys), so memories of two scopes under one thread
 * name are two threads that never see each other. Records of one import that put two scopes in one
 * thread describe a conversation the store would split, so each of them is refused: none says
 * which scope the conversation is in.
 *
 * The store is not asked whether another scope already uses a record's thread. A refusal would
 * answer that question for a key bound to one user — a run's thread is named after its scope
 * (`run:user_id=bob&run_id=…`), so the key could learn which runs another user has — and would let
 * it take a name first and make that user's own later import fail. The scoped store already keeps
 * such a record out of the other scope's thread: it starts (or joins) its own scope's thread of
 * that name, as a copy of a conversation into another scope should.
 *
 * @module
 */

import { formatScope, type Scope, scopeKey } from "../../core/scope.js";
import { isLucidError } from "../../errors.js";
import type { ImportRecord } from "../types.js";
import { recordScope } from "./import-fields.js";

/** Why a record was refused, as an import item reports it. */
export interface ThreadRefusal {
  readonly code: "INVALID_ARGUMENT";
  readonly message: string;
}

/**
 * The records (by index) whose thread other records of the import hold in another scope. A record
 * whose scope or thread is malformed is left out: preparing it fails it anyway.
 *
 * @example
 * mixedThreads([
 *   { text: "Where do we meet?", user_id: "alice", thread: "t" },
 *   { text: "At noon", user_id: "bob", thread: "t" },
 * ]); // => Map { 0 => { code: "INVALID_ARGUMENT", … }, 1 => { … } }
 */
export function mixedThreads(records: readonly (ImportRecord | undefined)[]): Map<number, ThreadRefusal> {
  type Holders = { scopes: Map<string, Scope>; indexes: number[] };
  const threads = new Map<string, Holders>();
  for (const [index, record] of records.entries()) {
    if (record === undefined || typeof record.thread !== "string" || record.thread.trim() === "") continue;
    const scope = scopeOrUndefined(record);
    if (scope === undefined) continue;
    const entry: Holders = threads.get(record.thread) ?? { scopes: new Map(), indexes: [] };
    entry.scopes.set(scopeKey(scope), scope);
    entry.indexes.push(index);
    threads.set(record.thread, entry);
  }
  const refused = new Map<number, ThreadRefusal>();
  for (const [thread, { scopes, indexes }] of threads) {
    if (scopes.size < 2) continue;
    const shown = [...scopes.values()].slice(0, 3).map(formatScope).join("; ");
    const message = `thread ${JSON.stringify(thread.slice(0, 80))} holds records of ${scopes.size} scopes (${shown}${scopes.size > 3 ? "; …" : ""}), but a thread is one scope's conversation: give each scope's records a thread of their own, or leave thread out.`;
    for (const index of indexes) refused.set(index, { code: "INVALID_ARGUMENT", message });
  }
  return refused;
}

/** The record's scope, or undefined when it names none or a malformed one (prepare reports that). */
function scopeOrUndefined(record: ImportRecord): Scope | undefined {
  try {
    const scope = recordScope(record);
    return Object.keys(scope).length === 0 ? undefined : scope;
  } catch (error) {
    if (isLucidError(error)) return undefined;
    throw error;
  }
}
