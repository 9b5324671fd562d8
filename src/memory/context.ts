import type { Clock } from "../clock.js";
import type { Embedder } from "../embed/embedder.js";
import type { CategoryTable } from "../policy/categories.js";
import type { MemoryStore } from "../store/store.js";

/** What every Memory verb works with; built once by `openMemory`. */
export interface MemoryContext {
  readonly store: MemoryStore;
  readonly embedder: Embedder;
  readonly clock: Clock;
  readonly categories: CategoryTable;
  /** Longest memory text accepted, in UTF-8 bytes. */
  readonly maxTextBytes: number;
  /** Messages kept per session scope (Mem0 keeps 10). */
  readonly messagesPerSession: number;
}
