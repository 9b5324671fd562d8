/**
 * What every service works with (memory verbs, dream, later sleep): built once per `Memory` by the
 * composition root (`sdk/create-context.ts`).
 *
 * @module
 */

import type { Clock } from "../clock.js";
import type { Embedder } from "../embed/embedder.js";
import type { Policy } from "../policy/policy.js";
import type { EmbedderStamp } from "../store/ports/maintenance.js";
import type { MemoryStore } from "../store/store.js";
import type { LlmBinding } from "./llm-run.js";
import type { RelateFacts } from "./relate-facts.js";

export interface MemoryContext {
  readonly store: MemoryStore;
  readonly embedder: Embedder;
  readonly clock: Clock;
  /** The one resolved policy: categories, secrets, dream thresholds, the gate. */
  readonly policy: Policy;
  /** Longest memory text accepted, in UTF-8 bytes. */
  readonly maxTextBytes: number;
  /** The IANA time zone in which an expiry day (`2099-12-31`) ends. */
  readonly timeZone: string;
  /** Messages kept per session scope (Mem0 keeps 10). */
  readonly messagesPerSession: number;
  /** The configured embedder's stamp. */
  readonly embedderStamp: EmbedderStamp;
  /**
   * When the store was written by another embedder and was opened with `allowEmbedderChange`, the
   * stamp it was written with; nothing may embed until `reembed()` clears it.
   */
  staleEmbedder: EmbedderStamp | null;
  /**
   * The default local model, when nobody chose an embedder and the store keeps the older local
   * model that wrote it: `reembed()` with `createLocalEmbedder()` would move it there.
   */
  readonly defaultLocal?: EmbedderStamp | null;
  /** The optional LLM (`infer: true`, dream's judge, the diary's narrative); absent when none is configured. */
  readonly llm?: LlmBinding;
  /** Whether dreams ask the LLM to judge the review tier unless told otherwise (`dream.llm`). */
  readonly dreamLlm?: boolean;
  /** Dream's relation judge, for facts `add` extracts (plugged in by the composition root). */
  readonly relateFacts?: RelateFacts;
}
