import type { Clock } from "../clock.js";
import type { Embedder } from "../embed/embedder.js";
import type { CategoryTable } from "../policy/categories.js";
import type { EmbedderStamp, MemoryStore } from "../store/store.js";
import type { SecretsGuard } from "./secrets-guard.js";

/** What every Memory verb works with; built once by `openMemory`. */
export interface MemoryContext {
  readonly store: MemoryStore;
  readonly embedder: Embedder;
  readonly clock: Clock;
  readonly categories: CategoryTable;
  /** Longest memory text accepted, in UTF-8 bytes. */
  readonly maxTextBytes: number;
  /** Applies the secrets policy to every text that enters the store. */
  readonly secrets: SecretsGuard;
  /** Messages kept per session scope (Mem0 keeps 10). */
  readonly messagesPerSession: number;
  /** The configured embedder's stamp. */
  readonly embedderStamp: EmbedderStamp;
  /**
   * When the store was written by another embedder and was opened with `allowEmbedderChange`, the
   * stamp it was written with; nothing may embed until `reembed()` clears it.
   */
  staleEmbedder: EmbedderStamp | null;
}
