/**
 * The deep phase's apply (`openclaw-dreaming.md` §8): the recalled ranges that earned it are written
 * into `MEMORY.md` and stored as long-term memories, as one run that `rollback` can undo.
 *
 * Under the workspace's lease (one sleeper per workspace, across processes):
 *
 * 1. rank the workspace's recall entries (`deep-rank.ts`);
 * 2. leave out what `MEMORY.md` already holds — a promotion marker or a `source=` citation of the
 *    range — marking it promoted ("reconciled");
 * 3. find each range again in its live note (`rehydrate.ts`): moved ranges are followed, a range
 *    gone or inside a managed fence is refused, and so is one whose note changes before the write;
 * 4. fit the new section in the budget (`memory-budget.ts`), dropping the lowest-ranked candidates
 *    when compaction cannot make room;
 * 5. write `MEMORY.md` atomically (hand-written lines untouched: the section is appended), then in
 *    one transaction mark the entries promoted, add each snippet as a long-term memory through the
 *    one write path, and record the run with the file's preimage. A transaction that fails puts the
 *    file back.
 *
 * Without `apply` the same ranking is returned, and nothing is written.
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import { resolve } from "node:path";
import type { MemoryContext } from "../core/context.js";
import { embedTexts } from "../core/embed-texts.js";
import { withLease } from "../core/lease.js";
import { newRunId } from "../core/run-id.js";
import { secretsGuardOf } from "../core/secrets-guard.js";
import { createMemoryWriter } from "../core/write/memory-writer.js";
import { prepareText } from "../core/write/prepare-text.js";
import { LucidError } from "../errors.js";
import type { RunChange } from "../store/ports/runs.js";
import { calendarDay } from "../text/expiry-date.js";
import { conceptTags } from "./concept-tags.js";
import { readInWorkspace, readWorkspaceBytes, realRoot } from "./confined-path.js";
import { type DeepOptions, rankForPromotion, type Scored } from "./deep-rank.js";
import { compactForBudget, MEMORY_MAX_CHARS } from "./memory-budget.js";
import {
  locateMemoryFile,
  readBytes,
  restoreFile,
  sha256,
  writableMemoryFile,
  writeAtomically,
} from "./memory-file.js";
import { appendSection, promotedKeys, promotionSection, visibleSnippet } from "./promotion-format.js";
import type {
  PromotedEntry,
  PromoteOptions,
  PromoteResult,
  PromotionCandidate,
  PromotionRefusal,
  SleepRunPlan,
} from "./promotion-types.js";
import type { RecallEntry } from "./recall-entry.js";
import { MAX_SNIPPET_CHARS, noteAddress, recallKey } from "./recall-keys.js";
import { patchRecalls, workspaceRecalls } from "./record-recalls.js";
import { redactNote } from "./redact-note.js";
import { rehydrate } from "./rehydrate.js";
import { sleepNow } from "./sleep-now.js";
import { SLEEP_RUN_KIND, sleepKey, sleepLeaseKey } from "./sleep-run.js";

/**
 * @example
 * await promote(context, "/home/ana/notes", { scope: { agent_id: "main" }, apply: true });
 * // => { runId: "sleep-20261129T030000-1a2b", promoted: [{ key: "memory:memory/2026-11-04.md:3:3", … }], … }
 */
export async function promote(
  context: MemoryContext,
  workspace: string,
  options: PromoteOptions,
): Promise<PromoteResult> {
  const root = resolve(workspace);
  if (options.apply === true)
    return withLease(context, await sleepLeaseKey(root), { what: "sleep" }, () =>
      applyPromotion(context, root, options),
    );
  if (options.draft === true) return applyPromotion(context, root, options);
  const now = sleepNow(context.clock, options.now);
  const memoryFile = await locateMemoryFile(root);
  return {
    workspace: root,
    memoryFile: memoryFile.path,
    now,
    applied: false,
    runId: null,
    candidates: rankCandidates(await workspaceRecalls(context, root), { ...options, now }),
    promoted: [],
    reconciled: [],
    refused: [],
    compactedDates: [],
  };
}

/**
 * The apply itself, for a caller that already holds the workspace's lease (the sweep, which runs
 * every phase under one). Without `apply` (a draft) it stops before writing anything.
 */
export async function applyPromotion(
  context: MemoryContext,
  workspace: string,
  options: PromoteOptions,
): Promise<PromoteResult> {
  const root = resolve(workspace);
  const now = sleepNow(context.clock, options.now);
  const rankOptions: DeepOptions = { ...options, now };
  const memoryFile = await writableMemoryFile(root);
  const base = { workspace: root, memoryFile: memoryFile.path, now };
  const ranked = rankForPromotion(await workspaceRecalls(context, root), rankOptions);
  const candidates = ranked.map(candidateOf);
  const before = await readBytes(memoryFile.path);
  const text = before === null ? "" : Buffer.from(before).toString("utf8");
  const already = new Set([...promotedKeys(text), ...citedKeys(text)]);
  const reconciled = ranked.filter((scored) => already.has(scored.entry.key));
  const refused: { key: string; address: string; reason: PromotionRefusal }[] = [];
  const refuse = (entry: RecallEntry, reason: PromotionRefusal) =>
    refused.push({
      key: entry.key,
      address: noteAddress(entry.path, entry.startLine, entry.endLine),
      reason,
    });

  const scanner = secretsGuardOf(context).scanner;
  const redact = (line: string) => scanner.redact(line).text;
  const sources = new Map<string, { sha: string; text: string } | null>();
  // A note whose links lead out of the workspace is no source, whatever was recorded of it.
  const outside = new Set<string>();
  const real = await realRoot(root);
  const sourceOf = async (path: string) => {
    if (!sources.has(path)) {
      const read = await readInWorkspace(root, path, real);
      if (read.kind === "outside") outside.add(path);
      const bytes = read.kind === "file" ? read.bytes : null;
      sources.set(
        path,
        // Redacted whole, as the index and the recorder saw it (a key may span lines).
        bytes === null
          ? null
          : { sha: sha256(bytes), text: redactNote(Buffer.from(bytes).toString("utf8"), scanner) },
      );
    }
    return sources.get(path) ?? null;
  };
  let ready: ReadyRange[] = [];
  for (const scored of ranked) {
    if (already.has(scored.entry.key)) continue;
    const source = await sourceOf(scored.entry.path);
    if (source === null) {
      refuse(scored.entry, outside.has(scored.entry.path) ? "outside-workspace" : "missing-file");
      continue;
    }
    const found = rehydrate(source.text, scored.entry, redact);
    if (!found.found) refuse(scored.entry, found.reason);
    else ready.push({ scored, startLine: found.startLine, endLine: found.endLine });
  }

  const day = calendarDay(Date.parse(now), options.timeZone ?? context.timeZone);
  const sectionOf = (items: typeof ready) =>
    promotionSection(
      day,
      items.map(({ scored, startLine, endLine }) => ({
        key: scored.entry.key,
        path: scored.entry.path,
        startLine,
        endLine,
        snippet: scored.entry.snippet,
        score: scored.score,
        signalCount: scored.signalCount,
        recallCount: scored.entry.recallCount,
        averageScore: scored.signalCount > 0 ? scored.entry.totalScore / scored.signalCount : 0,
        conceptTags: conceptTags(scored.entry.path, scored.entry.snippet),
      })),
      options.visibleChars,
    );
  let compaction = compactForBudget(text, 0, budgetOptions(options));
  while (ready.length > 0) {
    const added = appendSection(text, sectionOf(ready)).length - text.length;
    compaction = compactForBudget(text, added, budgetOptions(options));
    if (compaction.fits) break;
    refuse((ready.pop() as (typeof ready)[number]).scored.entry, "budget");
  }
  // A note edited while this ran: its ranges were found in bytes that are no longer there.
  const changed = new Set<string>();
  for (const [path, source] of sources) {
    const bytes = await readWorkspaceBytes(root, path, real);
    if (source !== null && (bytes === null || sha256(bytes) !== source.sha)) changed.add(path);
  }
  for (const item of ready.filter((each) => changed.has(each.scored.entry.path)))
    refuse(item.scored.entry, "source-changed");
  ready = ready.filter((each) => !changed.has(each.scored.entry.path));

  const next = ready.length === 0 ? text : appendSection(compaction.text, sectionOf(ready));
  const memoryFileDiff = { before: text, after: next };
  /** The result, written or not: a preview always shows `MEMORY.md` before and after. */
  const resultOf = (runId: string | null, promoted: readonly PromotedEntry[]): PromoteResult => ({
    ...base,
    applied: options.apply === true,
    runId,
    candidates,
    promoted,
    reconciled: reconciled.map((scored) => scored.entry.key),
    refused,
    compactedDates: ready.length > 0 ? compaction.compactedDates : [],
    ...(options.draft === true || options.apply !== true ? { memoryFileDiff } : {}),
  });
  if (options.apply !== true) {
    return resultOf(
      null,
      ready.map((item) => promotedEntry(item, null)),
    );
  }
  // The long-term memory says what the bullet says, whole: no list marker, one line.
  const prepared = ready.map((item) =>
    prepareText(context, visibleSnippet(item.scored.entry.snippet, MAX_SNIPPET_CHARS)),
  );
  const vectors = await embedTexts(
    context,
    prepared.map((draft) => draft.text),
    "add",
  );
  const runId = ready.length > 0 ? newRunId(SLEEP_RUN_KIND, context.clock.now()) : null;
  const current = await readBytes(memoryFile.path);
  if ((current === null ? null : sha256(current)) !== (before === null ? null : sha256(before))) {
    throw new LucidError(
      "SLEEP_CONFLICT",
      `${memoryFile.path} changed while sleep was promoting into it; nothing was written. Run the promotion again.`,
      { details: { memoryFile: memoryFile.path } },
    );
  }
  if (runId !== null) await writeAtomically(memoryFile.path, next);
  try {
    const promoted = await context.store.transaction(async (tx) => {
      const stamp = { actor: runId ?? "sleep", at: now, embedder: context.embedderStamp };
      const writer = createMemoryWriter(tx, stamp);
      const changes: RunChange[] = [];
      const entries: PromotedEntry[] = [];
      for (const [index, item] of ready.entries()) {
        const draft = prepared[index];
        if (draft === undefined) continue;
        const { entry } = item.scored;
        const source = noteAddress(entry.path, item.startLine, item.endLine);
        let memoryId: string | null = null;
        if ((await tx.findByHash(options.scope, draft.hash)) === null) {
          const row = await writer.insert({
            id: randomUUID(),
            text: draft,
            scope: options.scope,
            category: null,
            metadata: { source, sleepRun: runId, workspace: root },
            createdAt: now,
            updatedAt: now,
            expiresAt: null,
            embedding: vectors[index] as Float32Array,
          });
          memoryId = row.id;
          changes.push({
            kind: "memory",
            memoryId,
            before: null,
            after: { hash: row.hash, updatedAt: row.updatedAt },
          });
        }
        entries.push(promotedEntry(item, memoryId));
      }
      const marked = [...ready.map((item) => item.scored.entry), ...reconciled.map((scored) => scored.entry)];
      // Onto the records as they are now: recalls recorded while this ran are kept.
      await patchRecalls(tx, root, new Map(marked.map((entry) => [entry.key, { promotedAt: now }])), now);
      if (runId !== null) {
        changes.push({ kind: "file", path: memoryFile.path, before, after: { sha256: sha256(next) } });
        const plan: SleepRunPlan = {
          workspace: root,
          memoryFile: memoryFile.path,
          promoted: entries,
          reconciled: reconciled.map((scored) => scored.entry.key),
          after: next,
        };
        await tx.insertRun(
          {
            id: runId,
            kind: SLEEP_RUN_KIND,
            scopeKey: sleepKey(root),
            scope: options.scope,
            mode: "deep",
            plan,
            decisions: { options: { ...rankOptions } },
            outcome: { promoted: entries.length, refused, compactedDates: compaction.compactedDates },
            startedAt: now,
            committedAt: context.clock.now().toISOString(),
            undoneAt: null,
          },
          changes,
        );
      }
      return entries;
    });
    return resultOf(runId, promoted);
  } catch (error) {
    // The store said no: MEMORY.md goes back to the bytes it had, so file and store agree.
    if (runId !== null) await restoreFile(memoryFile.path, before);
    throw error;
  }
}

/** A range ready to promote: its ranked entry and the lines of its note it spans now. */
interface ReadyRange {
  readonly scored: Scored;
  readonly startLine: number;
  readonly endLine: number;
}

/** A promoted range as the result reports it; `memoryId` the memory it became (null: none made). */
function promotedEntry(item: ReadyRange, memoryId: string | null): PromotedEntry {
  const { entry } = item.scored;
  return {
    key: entry.key,
    path: entry.path,
    startLine: item.startLine,
    endLine: item.endLine,
    score: round(item.scored.score),
    marker: `<!-- openclaw-memory-promotion:${entry.key} -->`,
    memoryId,
  };
}

/** The ranked candidates of `entries`, as a preview shows them. */
export function rankCandidates(entries: readonly RecallEntry[], options: DeepOptions): PromotionCandidate[] {
  return rankForPromotion(entries, options).map(candidateOf);
}

function candidateOf(scored: Scored, index: number): PromotionCandidate {
  const { entry } = scored;
  return {
    rank: index + 1,
    key: entry.key,
    path: entry.path,
    startLine: entry.startLine,
    endLine: entry.endLine,
    address: noteAddress(entry.path, entry.startLine, entry.endLine),
    snippet: entry.snippet,
    score: round(scored.score),
    recalls: entry.recallCount,
    signals: scored.signalCount,
    uniqueQueries: scored.uniqueQueries,
    days: entry.recallDays.length,
    ageDays: Math.round(scored.ageDays * 10) / 10,
  };
}

/** Keys of the ranges `MEMORY.md` cites (`source=memory/2026-11-04.md:3-3`), as older promotions wrote them. */
function citedKeys(text: string): string[] {
  return [...text.matchAll(/source=([^\s\]]+?):(\d+)-(\d+)/gu)].map((match) =>
    recallKey(match[1] ?? "", Number(match[2]), Number(match[3])),
  );
}

function budgetOptions(options: PromoteOptions): { maxChars: number; maxLoss?: number } {
  return {
    maxChars: options.maxChars ?? MEMORY_MAX_CHARS,
    ...(options.maxLoss === undefined ? {} : { maxLoss: options.maxLoss }),
  };
}

const round = (value: number) => Math.round(value * 1000) / 1000;
