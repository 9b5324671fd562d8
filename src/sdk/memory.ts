/**
 * `Memory`: the SDK's one object, with the methods of `mem0ai/oss` `Memory`. Each method is a thin
 * call into its own module (`memory/add.ts`, `memory/search.ts`…); this class only holds the context
 * and opens it lazily, as Mem0 does, so `new Memory(options)` works as a drop-in.
 *
 * Each method loads its module on first use (`import()`), so a process that only lists or reads
 * memories never loads the dream analysers, the entity tagger or the secret detector: `lucid list`
 * starts in a fraction of the time (BENCHMARKS.md, "developer loop").
 *
 * @module
 */

import type { MemoryContext } from "../core/context.js";
import { type ScopeOptions, scopeFromOptions, scopeToOptions } from "../core/scope.js";
import { createDreamApi, type DreamApi } from "../dream/dream-api.js";
import type { RecordSessionOptions, RecordSessionResult } from "../dream/gate/sessions.js";
import { LucidError } from "../errors.js";
import type { Filters } from "../filters/filter.js";
import type { CaptureOptions, CaptureResult } from "../memory/capture.js";
import type { PurgeResult } from "../memory/purge.js";
import type { ScanResult } from "../memory/scan.js";
import type {
  AddOptions,
  AddResult,
  ExportRecord,
  ForgetOptions,
  ForgetResult,
  GetAllOptions,
  GetAllResult,
  HistoryEntry,
  ImportInput,
  ImportOptions,
  ImportResult,
  MemoryItem,
  Message,
  ReembedOptions,
  SearchOptions,
  SearchResult,
  StoreStatus,
  UpdateFields,
} from "../memory/types.js";
import type { BatchUpdate, UpdateResult } from "../memory/update.js";
import { createContext, type MemoryOptions } from "./create-context.js";
import { type MemoryConfig, readMemoryOptions } from "./mem0-config.js";
import type { RecallCallOptions, RecallResult } from "./recall.js";
import { createWorkspace, type Workspace, type WorkspaceOptions } from "./workspace.js";

export interface CaptureCallOptions extends CaptureOptions {
  /** The host's session: counted once for the scope's auto-dream gate. */
  sessionId?: string;
  /** What started it (`user`, `cron`, `heartbeat`, `subagent`…); background triggers do not count. */
  trigger?: string;
}

export interface CaptureCallResult extends CaptureResult {
  /** With `sessionId`: whether it counted, and the sessions since the last dream. */
  readonly session?: RecordSessionResult;
}

/**
 * Long-term memory for an agent.
 *
 * @example
 * const memory = new Memory({ path: "./agent.db" });   // opened on first use, like mem0ai/oss
 * await memory.add("User prefers TypeScript", { userId: "alice" });
 */
export class Memory {
  private context: Promise<MemoryContext> | undefined;
  private closed = false;

  private readonly options: MemoryOptions;

  /**
   * Lucid's options, or Mem0's `MemoryConfig` (`embedder: { provider, config }`, `vectorStore`,
   * `historyDbPath`…), read by `mem0-config.ts`. A key neither knows is `INVALID_ARGUMENT` here, at
   * once; the store opens on first use. `openMemory(options)` opens it at once.
   */
  constructor(options: MemoryConfig = {}) {
    this.options = readMemoryOptions(options);
  }

  /** Mem0's `Memory.fromConfig(config)`: the same as `new Memory(config)`. */
  static fromConfig(config: MemoryConfig = {}): Memory {
    return new Memory(config);
  }

  /** Sessions for the auto-dream gate: `memory.sessions.record(sessionId, { trigger, userId })`. */
  readonly sessions = {
    record: async (sessionId: string, options?: RecordSessionOptions): Promise<RecordSessionResult> => {
      const { recordSession } = await import("../dream/gate/sessions.js");
      return recordSession(await this.ready(), sessionId, options);
    },
  };

  /** Consolidation: `memory.dream.plan(scope, { now })` returns what a dream would change. */
  readonly dream: DreamApi = createDreamApi(() => this.ready());

  /**
   * Sleep for an agent that keeps its memory in Markdown: search the workspace's notes (recording
   * recall signals), promote what keeps being recalled into `MEMORY.md`, roll a promotion back.
   *
   * @example
   * const notes = memory.workspace("~/.openclaw/workspace".replace("~", homedir()));
   * await notes.promote({ apply: true });
   */
  workspace(dir: string, options?: WorkspaceOptions): Workspace {
    return createWorkspace(() => this.ready(), dir, options);
  }

  /**
   * What to inject before a turn: the scope's memories ranked (category order, importance, score)
   * within a token budget, identity and configuration always in, as Mem0's `<recalled-memories>`
   * block and as data; with `workspace`, the best note snippets too (recorded for sleep).
   *
   * @example
   * const { text } = await memory.recall("plan my Kyoto trip", { userId: "ana" });
   */
  async recall(query: string, options?: RecallCallOptions): Promise<RecallResult> {
    const { recall } = await import("./recall.js");
    return recall(await this.ready(), query, options);
  }

  /**
   * What to keep after a turn: without an LLM a deterministic triage (the user's durable
   * statements; chatter, questions, requests, tool output dropped; credentials redacted); with
   * one, `add` with `infer: true`. With `sessionId`, the session is counted for the auto-dream gate
   * (once per id; background triggers never).
   *
   * @example
   * await memory.capture(turn, { userId: "ana", sessionId: "s-42" });
   */
  async capture(messages: Message[], options?: CaptureCallOptions): Promise<CaptureCallResult> {
    const { sessionId, trigger, ...captureOptions } = options ?? {};
    const { captureTurn } = await import("../memory/capture.js");
    const context = await this.ready();
    const captured = await captureTurn(context, messages, captureOptions);
    if (sessionId === undefined) return captured;
    const scope = scopeToOptions(scopeFromOptions(captureOptions));
    const session = await this.sessions.record(sessionId, {
      ...scope,
      ...(trigger === undefined ? {} : { trigger }),
    });
    return { ...captured, session };
  }

  /** Store facts: a string, or a conversation whose non-system messages each become a memory. */
  async add(input: string | Message[], options?: AddOptions): Promise<AddResult> {
    const { addMemories } = await import("../memory/add.js");
    return addMemories(await this.ready(), input, options);
  }

  /** Hybrid search within a scope (`filters.user_id`…): dense, keyword and entity signals fused. */
  async search(query: string, options?: SearchOptions): Promise<SearchResult> {
    const { searchMemories } = await import("../memory/search.js");
    return searchMemories(await this.ready(), query, options);
  }

  /**
   * The full id of the memory a short id means (at least 8 leading characters, as `lucid` accepts
   * them), or the input when no stored memory's id starts with it; an ambiguous prefix is
   * `INVALID_ARGUMENT` naming the candidates.
   */
  async resolveId(idOrPrefix: string): Promise<string> {
    const { resolveId } = await import("../memory/resolve-id.js");
    return resolveId(await this.ready(), idOrPrefix);
  }

  async get(memoryId: string): Promise<MemoryItem | null> {
    const { getMemory } = await import("../memory/get.js");
    return getMemory(await this.ready(), memoryId);
  }

  /** A scope's memories, newest first, paginated, with the total. */
  async getAll(options?: GetAllOptions): Promise<GetAllResult> {
    const { getAllMemories } = await import("../memory/get-all.js");
    return getAllMemories(await this.ready(), options);
  }

  async update(memoryId: string, change: string | UpdateFields): Promise<UpdateResult> {
    const { updateMemory } = await import("../memory/update.js");
    return updateMemory(await this.ready(), memoryId, change);
  }

  /**
   * Several updates in one transaction (MemoryClient's `batchUpdate`, with `update`'s fields): every
   * change is checked and every memory found before any is written, so one bad change writes none.
   *
   * @example
   * await memory.batchUpdate([{ memoryId: a, text: "Alice drinks green tea" }, { memoryId: b, metadata: { pinned: true } }]);
   */
  async batchUpdate(updates: readonly BatchUpdate[]): Promise<UpdateResult[]> {
    const { updateMemories } = await import("../memory/update.js");
    return updateMemories(await this.ready(), updates);
  }

  async delete(memoryId: string): Promise<{ message: string }> {
    const { deleteMemory } = await import("../memory/delete.js");
    return deleteMemory(await this.ready(), memoryId);
  }

  /** Deletes every memory of a scope; the scope is required. */
  async deleteAll(
    options: ScopeOptions & { filters?: Filters },
  ): Promise<{ message: string; deleted: number }> {
    const { deleteAllMemories } = await import("../memory/delete-all.js");
    return deleteAllMemories(await this.ready(), options);
  }

  async history(memoryId: string): Promise<HistoryEntry[]> {
    const { memoryHistory } = await import("../memory/history.js");
    return memoryHistory(await this.ready(), memoryId);
  }

  /**
   * Erases a memory and every trace of it: the memory, its history, the preimages dream runs keep of
   * it (their undo no longer restores it), the credentials its texts held from messages and run
   * plans; then compacts the file. Works on a memory already deleted, whose history remains.
   */
  async purge(memoryId: string): Promise<PurgeResult> {
    const { purgeMemory } = await import("../memory/purge.js");
    return purgeMemory(await this.ready(), memoryId);
  }

  /**
   * Deletes the best match of `query` when it is clearly the one meant (score ≥ `minScore`, ahead of
   * the runner-up by `margin`); otherwise deletes nothing and returns the candidates to choose from.
   */
  async forget(query: string, options: ForgetOptions): Promise<ForgetResult> {
    const { forgetMemory } = await import("../memory/forget.js");
    return forgetMemory(await this.ready(), query, options);
  }

  /**
   * Imports memories with their ids and timestamps, a batch per transaction; bad records are
   * reported, not fatal. Takes records (Lucid's or Mem0's field names), a Mem0 `getAll` dump
   * (`{ results: [...] }`), or an export file's text (JSONL, JSON, Mem0's Markdown export); records
   * that name no scope get `options`' (`userId`…).
   */
  async importMemories(input: ImportInput, options?: ImportOptions): Promise<ImportResult> {
    const { importMemories } = await import("../memory/import.js");
    return importMemories(await this.ready(), input, options);
  }

  /** Every memory (or those matching `filters`), oldest first, in a stable form for backups and migration. */
  async *exportMemories(options?: { filters?: Filters }): AsyncGenerator<ExportRecord> {
    const { exportMemories } = await import("../memory/export.js");
    yield* exportMemories(await this.ready(), options);
  }

  /** Audits stored memories for credentials: where each is, with a masked preview, never the value. */
  async scan(options?: { filters?: Filters }): Promise<ScanResult> {
    const { scanMemories } = await import("../memory/scan.js");
    return scanMemories(await this.ready(), options);
  }

  /** Where the store is, which embedder wrote it, and counts by scope and category. */
  async status(): Promise<StoreStatus> {
    const { storeStatus } = await import("../memory/status.js");
    return storeStatus(await this.ready());
  }

  /** Re-embeds every memory with the configured embedder (open with `allowEmbedderChange`); resumable. */
  async reembed(options?: ReembedOptions): Promise<{ reembedded: number; total: number }> {
    const { reembedMemories } = await import("../memory/reembed.js");
    return reembedMemories(await this.ready(), options);
  }

  /** Deletes everything in the store: memories, history, entities, messages, runs. */
  async reset(): Promise<void> {
    const context = await this.ready();
    await context.store.reset();
    await context.store.bindEmbedder(context.embedderStamp);
    context.staleEmbedder = null;
  }

  /** Closes the store, the embedder and the LLM. Further calls fail with STORE_CLOSED. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.context === undefined) return;
    const context = await this.context.catch(() => undefined);
    if (context === undefined) return;
    await context.store.close();
    await context.embedder.close?.();
    await context.llm?.model.close?.();
  }

  /** Opens the store on first use; a failed open is retried by the next call. */
  async ready(): Promise<MemoryContext> {
    if (this.closed)
      throw new LucidError("STORE_CLOSED", "This Memory is closed. Open a new one with openMemory().");
    this.context ??= createContext(this.options).catch((error: unknown) => {
      this.context = undefined;
      throw error;
    });
    return this.context;
  }
}
