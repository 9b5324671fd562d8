/**
 * Recording recall signals: the hits one search returned on a workspace's notes become evidence of
 * use for sleep's deep phase (`openclaw-dreaming.md` §4). Only short-term notes count; the snippet is
 * the text of the hit's lines in the file (or the text the search returned), with every credential
 * redacted — a recall record is a copy of a note, and the store is no place for a key — and a
 * contaminated snippet is never stored. One search is one transaction: its hits are all recorded or
 * none are.
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import { isAbsolute, join, resolve } from "node:path";
import type { MemoryContext } from "../core/context.js";
import { secretsGuardOf } from "../core/secrets-guard.js";
import { LucidError } from "../errors.js";
import type { StoredRecall } from "../store/ports/recalls.js";
import { calendarDay } from "../text/expiry-date.js";
import type { Contamination } from "./contamination.js";
import { isShortTermPath, normaliseNotePath } from "./note-paths.js";
import { applyHit, type RecallEntry, type SignalType } from "./recall-entry.js";
import { recallKey } from "./recall-keys.js";

/** Records kept per workspace; past it, the weakest and oldest go first. */
export const MAX_RECALL_ENTRIES = 512;

export interface RecallHitInput {
  /** Workspace-relative path of the note. */
  readonly path: string;
  /** 1-based, inclusive. */
  readonly startLine: number;
  readonly endLine: number;
  readonly score: number;
  /** The text the search returned; read from the file's lines when absent. */
  readonly snippet?: string;
}

export interface RecordOptions {
  /** The workspace directory. */
  readonly workspace: string;
  readonly query: string;
  /** When the search ran (ISO); default now. */
  readonly at?: string;
  /** The zone whose calendar day the signal counts for; default the context's. */
  readonly timeZone?: string;
  /** Default `recall`: a search someone made. */
  readonly type?: SignalType;
}

export type SkipReason = "not-short-term" | "missing-lines" | Contamination;

export interface RecordResult {
  readonly recorded: number;
  readonly skipped: readonly {
    readonly path: string;
    readonly startLine: number;
    readonly endLine: number;
    readonly reason: SkipReason;
  }[];
}

/**
 * @example
 * await recordRecalls(context, { workspace: "/home/ana/notes", query: "where do we stay in Kyoto?" }, [
 *   { path: "memory/2026-11-04.md", startLine: 3, endLine: 3, score: 0.91 },
 * ]);
 * // => { recorded: 1, skipped: [] }
 */
export async function recordRecalls(
  context: MemoryContext,
  options: RecordOptions,
  hits: readonly RecallHitInput[],
): Promise<RecordResult> {
  const workspace = resolve(options.workspace);
  const at = options.at === undefined ? context.clock.now().toISOString() : checkInstant(options.at);
  const day = calendarDay(Date.parse(at), options.timeZone ?? context.timeZone);
  const signal = { type: options.type ?? "recall", query: options.query, at, day };
  const scanner = secretsGuardOf(context).scanner;
  const files = new Map<string, Promise<string[] | undefined>>();
  const skipped: { path: string; startLine: number; endLine: number; reason: SkipReason }[] = [];
  const ready: { hit: RecallHitInput & { path: string; snippet: string }; key: string }[] = [];
  for (const given of hits) {
    const path = normaliseNotePath(given.path);
    const where = { path, startLine: given.startLine, endLine: given.endLine };
    if (!isShortTermPath(path) || isAbsolute(path)) {
      skipped.push({ ...where, reason: "not-short-term" });
      continue;
    }
    const text = given.snippet ?? (await linesOf(files, workspace, path, given.startLine, given.endLine));
    if (text === undefined) {
      skipped.push({ ...where, reason: "missing-lines" });
      continue;
    }
    ready.push({
      hit: { ...given, path, snippet: scanner.redact(text).text },
      key: recallKey(path, given.startLine, given.endLine),
    });
  }
  if (ready.length === 0) return { recorded: 0, skipped };

  let recorded = 0;
  await context.store.transaction(async (tx) => {
    const stored = new Map(
      (await tx.getRecalls(workspace, [...new Set(ready.map((item) => item.key))])).map((record) => [
        record.key,
        entryOf(record),
      ]),
    );
    const changed = new Map<string, RecallEntry>();
    for (const { hit, key } of ready) {
      const update = applyHit(changed.get(key) ?? stored.get(key), hit, signal);
      if (!update.recorded) {
        skipped.push({
          path: hit.path,
          startLine: hit.startLine,
          endLine: hit.endLine,
          reason: update.reason,
        });
        continue;
      }
      changed.set(key, update.entry);
      recorded++;
    }
    // Only what this search changed is written: a refused hit leaves its record as it was.
    await tx.putRecalls(
      workspace,
      [...changed.values()].map((entry) => ({ key: entry.key, entry: { ...entry }, updatedAt: at })),
    );
    // Only a search that added a record can take the workspace past the cap.
    if ([...changed.keys()].some((key) => !stored.has(key))) await evictBeyondCap(tx, workspace);
  });
  return { recorded, skipped };
}

/** The workspace's recall entries, as the deep phase ranks them; a malformed record is left out. */
export async function workspaceRecalls(context: MemoryContext, workspace: string): Promise<RecallEntry[]> {
  const records = await context.store.listRecalls(resolve(workspace));
  return records.flatMap((record) => entryOf(record) ?? []);
}

/** Past the cap, the records with the fewest signals and the oldest last recall go. */
async function evictBeyondCap(
  tx: Pick<MemoryContext["store"], "listRecalls" | "deleteRecalls">,
  workspace: string,
): Promise<void> {
  const all = (await tx.listRecalls(workspace)).flatMap((record) => entryOf(record) ?? []);
  if (all.length <= MAX_RECALL_ENTRIES) return;
  const signals = (entry: RecallEntry) => entry.recallCount + entry.dailyCount + entry.groundedCount;
  const weakest = [...all].sort(
    (a, b) => signals(a) - signals(b) || (a.lastRecalledAt < b.lastRecalledAt ? -1 : 1),
  );
  await tx.deleteRecalls(
    workspace,
    weakest.slice(0, all.length - MAX_RECALL_ENTRIES).map((entry) => entry.key),
  );
}

/** The text of lines `start`–`end` (1-based, inclusive) of a note, or undefined when they are not there. */
async function linesOf(
  files: Map<string, Promise<string[] | undefined>>,
  workspace: string,
  path: string,
  start: number,
  end: number,
): Promise<string | undefined> {
  if (!Number.isInteger(start) || !Number.isInteger(end) || start < 1 || end < start) return undefined;
  let lines = files.get(path);
  if (lines === undefined) {
    lines = readFile(join(workspace, path), "utf8").then(
      (text) => text.replace(/\r\n?/gu, "\n").split("\n"),
      () => undefined,
    );
    files.set(path, lines);
  }
  const all = await lines;
  if (all === undefined || end > all.length) return undefined;
  return all.slice(start - 1, end).join("\n");
}

/** A stored record as an entry, checked: the fields ranking reads must be there. */
function entryOf(record: StoredRecall): RecallEntry | undefined {
  const entry = record.entry as Partial<RecallEntry>;
  const numbers = [
    entry.startLine,
    entry.endLine,
    entry.recallCount,
    entry.dailyCount,
    entry.groundedCount,
    entry.totalScore,
    entry.maxScore,
  ];
  const lists = [entry.queryHashes, entry.userQueryHashes, entry.recallDays];
  if (
    entry.key !== record.key ||
    typeof entry.path !== "string" ||
    typeof entry.snippet !== "string" ||
    typeof entry.lastRecalledAt !== "string" ||
    typeof entry.firstRecalledAt !== "string" ||
    !numbers.every((value) => typeof value === "number" && Number.isFinite(value)) ||
    !lists.every((list) => Array.isArray(list) && list.every((item) => typeof item === "string"))
  ) {
    return undefined;
  }
  return entry as RecallEntry;
}

function checkInstant(at: string): string {
  const time = Date.parse(at);
  if (Number.isNaN(time) || !/(?:Z|[+-]\d{2}:?\d{2})$/iu.test(at)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `A recall's time must be an ISO timestamp with its offset, got ${JSON.stringify(at)}.`,
    );
  }
  return new Date(time).toISOString();
}
