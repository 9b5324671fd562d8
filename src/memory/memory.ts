/**
 * `Memory`: the SDK's one object, with the methods of `mem0ai/oss` `Memory`. Each method is a thin
 * call into its own module (`add.ts`, `search.ts`…); this class only holds the context and opens it
 * lazily, as Mem0 does, so `new Memory(options)` works as a drop-in.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import { addMemories } from "./add.js";
import type { MemoryContext } from "./context.js";
import { createContext, type MemoryOptions } from "./create-context.js";
import { deleteMemory } from "./delete.js";
import { deleteAllMemories } from "./delete-all.js";
import { getMemory } from "./get.js";
import { getAllMemories } from "./get-all.js";
import { memoryHistory } from "./history.js";
import { searchMemories } from "./search.js";
import type {
  AddOptions,
  AddResult,
  Filters,
  GetAllOptions,
  GetAllResult,
  HistoryEntry,
  MemoryItem,
  Message,
  ScopeOptions,
  SearchOptions,
  SearchResult,
  UpdateFields,
} from "./types.js";
import { type UpdateResult, updateMemory } from "./update.js";

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

  /** `openMemory(options)` does the same and reports a bad configuration at once. */
  constructor(private readonly options: MemoryOptions = {}) {}

  /** Store facts: a string, or a conversation whose non-system messages each become a memory. */
  async add(input: string | Message[], options?: AddOptions): Promise<AddResult> {
    return addMemories(await this.ready(), input, options);
  }

  /** Hybrid search within a scope (`filters.user_id`…): dense, keyword and entity signals fused. */
  async search(query: string, options?: SearchOptions): Promise<SearchResult> {
    return searchMemories(await this.ready(), query, options);
  }

  async get(memoryId: string): Promise<MemoryItem | null> {
    return getMemory(await this.ready(), memoryId);
  }

  /** A scope's memories, newest first, paginated, with the total. */
  async getAll(options?: GetAllOptions): Promise<GetAllResult> {
    return getAllMemories(await this.ready(), options);
  }

  async update(memoryId: string, change: string | UpdateFields): Promise<UpdateResult> {
    return updateMemory(await this.ready(), memoryId, change);
  }

  async delete(memoryId: string): Promise<{ message: string }> {
    return deleteMemory(await this.ready(), memoryId);
  }

  /** Deletes every memory of a scope; the scope is required. */
  async deleteAll(
    options: ScopeOptions & { filters?: Filters },
  ): Promise<{ message: string; deleted: number }> {
    return deleteAllMemories(await this.ready(), options);
  }

  async history(memoryId: string): Promise<HistoryEntry[]> {
    return memoryHistory(await this.ready(), memoryId);
  }

  /** Deletes everything in the store: memories, history, entities, messages. */
  async reset(): Promise<void> {
    const context = await this.ready();
    await context.store.reset();
    await context.store.bindEmbedder({
      id: context.embedder.id ?? "custom",
      dimension: context.embedder.dimension,
    });
  }

  /** Closes the store and the embedder. Further calls fail with STORE_CLOSED. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    if (this.context === undefined) return;
    const context = await this.context.catch(() => undefined);
    if (context === undefined) return;
    await context.store.close();
    await context.embedder.close?.();
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
