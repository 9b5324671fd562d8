/**
 * OpenClaw's own recall store, read into Lucid's (`openclaw-dreaming.md` §1, §4): the JSON file
 * `memory/.dreams/short-term-recall.json`, `{ version: 1, updatedAt, entries: { [key]: entry } }`.
 * A user who switches keeps the evidence OpenClaw gathered. Every entry is checked, not trusted: a
 * malformed one, one whose path is not short-term or whose snippet is contaminated is skipped with
 * why; lists are cut to the caps. Importing twice changes nothing: a key already recorded is kept as
 * it is.
 *
 * @module
 */

import { join, resolve } from "node:path";
import type { MemoryContext } from "../core/context.js";
import { secretsGuardOf } from "../core/secrets-guard.js";
import { LucidError } from "../errors.js";
import { readInWorkspace } from "./confined-path.js";
import { contaminationOf } from "./contamination.js";
import { isShortTermPath, normaliseNotePath } from "./note-paths.js";
import { MAX_QUERY_HASHES, MAX_RECALL_DAYS, type RecallEntry } from "./recall-entry.js";
import { claimHash, recallKey, storedSnippet } from "./recall-keys.js";
import { MAX_RECALL_ENTRIES, storedRecall } from "./record-recalls.js";

/** Where OpenClaw keeps it, relative to the workspace. */
export const OPENCLAW_RECALL_FILE = "memory/.dreams/short-term-recall.json";

export interface ImportSkip {
  readonly key: string;
  readonly reason: string;
}

export interface OpenClawImport {
  readonly imported: number;
  /** Keys already recorded in Lucid, left as they are. */
  readonly kept: number;
  /** Records past the cap afterwards, the least recently recalled (imported or not), deleted. */
  readonly evicted: number;
  readonly skipped: readonly ImportSkip[];
}

/**
 * The text of the workspace's {@link OPENCLAW_RECALL_FILE}, read only inside the workspace.
 *
 * @throws LucidError `NOTE_NOT_FOUND` when it is not there, or links outside the workspace.
 * @example
 * await importOpenClawRecalls(context, workspace, await readOpenClawRecallStore(workspace));
 */
export async function readOpenClawRecallStore(workspaceDir: string): Promise<string> {
  const workspace = resolve(workspaceDir);
  const file = join(workspace, OPENCLAW_RECALL_FILE);
  const read = await readInWorkspace(workspace, OPENCLAW_RECALL_FILE);
  if (read.kind === "file") return Buffer.from(read.bytes).toString("utf8");
  throw new LucidError(
    "NOTE_NOT_FOUND",
    read.kind === "outside"
      ? `${file} links outside the workspace; sleep reads only the workspace's own files. Replace the link with the file, or pass its text.`
      : `No OpenClaw recall store at ${file}: OpenClaw writes it once memory search has run with dreaming enabled.`,
    { details: { workspace, ...(read.kind === "outside" ? { reason: "outside-workspace" } : {}) } },
  );
}

/**
 * @throws LucidError `INVALID_ARGUMENT` when the text is not OpenClaw's recall store at all.
 * @example
 * await importOpenClawRecalls(context, "/home/ana/.openclaw/workspace", readFileSync(file, "utf8"));
 * // => { imported: 41, kept: 0, evicted: 0, skipped: [{ key: "memory:MEMORY.md:3:3", reason: "not a short-term note" }] }
 */
export async function importOpenClawRecalls(
  context: MemoryContext,
  workspaceDir: string,
  text: string,
): Promise<OpenClawImport> {
  const workspace = resolve(workspaceDir);
  const entries = entriesOf(text);
  const scanner = secretsGuardOf(context).scanner;
  const skipped: ImportSkip[] = [];
  const read: RecallEntry[] = [];
  for (const [key, value] of Object.entries(entries)) {
    const parsed = readEntry(key, value);
    if (typeof parsed === "string") {
      skipped.push({ key, reason: parsed });
      continue;
    }
    const snippet = storedSnippet(scanner.redact(parsed.snippet).text);
    const contamination = contaminationOf(parsed.snippet);
    if (contamination !== undefined) {
      skipped.push({ key, reason: `contaminated (${contamination})` });
      continue;
    }
    read.push({ ...parsed, snippet, claimHash: claimHash(snippet) });
  }
  const now = context.clock.now().toISOString();
  let kept = 0;
  let evicted = 0;
  await context.store.transaction(async (tx) => {
    const existing = new Set(
      (
        await tx.getRecalls(
          workspace,
          read.map((entry) => entry.key),
        )
      ).map((record) => record.key),
    );
    const fresh = read.filter((entry) => !existing.has(entry.key));
    kept = read.length - fresh.length;
    await tx.putRecalls(
      workspace,
      fresh.map((entry) => storedRecall(entry, now)),
    );
    // OpenClaw keeps the same cap, but its file is outside input: the store's cap holds regardless.
    evicted = await tx.trimRecalls(workspace, MAX_RECALL_ENTRIES, []);
  });
  return { imported: read.length - kept, kept, evicted, skipped };
}

function entriesOf(text: string): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `${OPENCLAW_RECALL_FILE} is not valid JSON (${(error as Error).message}).`,
    );
  }
  const entries = (value as { entries?: unknown } | null)?.entries;
  if (
    typeof value !== "object" ||
    value === null ||
    typeof entries !== "object" ||
    entries === null ||
    Array.isArray(entries)
  ) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `This is not OpenClaw's recall store: it needs { "version": 1, "entries": { … } } (${OPENCLAW_RECALL_FILE}).`,
    );
  }
  return entries as Record<string, unknown>;
}

/** An OpenClaw entry as Lucid's, or why it cannot be. */
function readEntry(key: string, value: unknown): RecallEntry | string {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return "not an object";
  const entry = value as Record<string, unknown>;
  if (typeof entry.path !== "string") return "no path";
  const path = normaliseNotePath(entry.path);
  if (!isShortTermPath(path)) return "not a short-term note";
  const startLine = entry.startLine;
  const endLine = entry.endLine;
  if (
    !Number.isInteger(startLine) ||
    !Number.isInteger(endLine) ||
    (startLine as number) < 1 ||
    (endLine as number) < (startLine as number)
  ) {
    return "bad line range";
  }
  if (typeof entry.snippet !== "string" || entry.snippet.trim() === "") return "no snippet";
  const count = (name: string) => {
    const number = entry[name];
    return typeof number === "number" && Number.isFinite(number) && number >= 0 ? number : 0;
  };
  const strings = (name: string, cap: number) => {
    const list = entry[name];
    return Array.isArray(list)
      ? list.filter((item): item is string => typeof item === "string").slice(-cap)
      : [];
  };
  const instant = (name: string) => {
    const text = entry[name];
    return typeof text === "string" && !Number.isNaN(Date.parse(text))
      ? new Date(Date.parse(text)).toISOString()
      : undefined;
  };
  const lastRecalledAt = instant("lastRecalledAt");
  if (lastRecalledAt === undefined) return "no lastRecalledAt";
  const ownKey = recallKey(path, startLine as number, endLine as number);
  // OpenClaw's grounded (claim) keys add a hash; Lucid keys a range by its lines.
  if (key !== ownKey && !key.startsWith(`${ownKey}:`)) return "key does not match its range";
  const queryHashes = strings("queryHashes", MAX_QUERY_HASHES);
  const promotedAt = instant("promotedAt");
  return {
    key: ownKey,
    path,
    startLine: startLine as number,
    endLine: endLine as number,
    source: "memory",
    snippet: entry.snippet,
    claimHash: "",
    recallCount: count("recallCount"),
    dailyCount: count("dailyCount"),
    groundedCount: count("groundedCount"),
    totalScore: count("totalScore"),
    maxScore: Math.min(count("maxScore"), 1),
    firstRecalledAt: instant("firstRecalledAt") ?? lastRecalledAt,
    lastRecalledAt,
    queryHashes,
    // The old store has no userQueryHashes, and its queryHashes also hold the light phase's synthetic
    // queries: they count as asked only when the entry had no daily or grounded signal at all.
    userQueryHashes: Array.isArray(entry.userQueryHashes)
      ? strings("userQueryHashes", MAX_QUERY_HASHES)
      : count("dailyCount") + count("groundedCount") === 0
        ? queryHashes
        : [],
    recallDays: strings("recallDays", MAX_RECALL_DAYS),
    ...(promotedAt === undefined ? {} : { promotedAt }),
  };
}
