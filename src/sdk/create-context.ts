/**
 * The composition root: the one place that chooses defaults (the SQLite file, the local embedder,
 * the system clock) for whatever the caller did not pass, and resolves the one policy every service
 * reads.
 *
 * @module
 */

import { type Clock, systemClock } from "../clock.js";
import type { MemoryContext } from "../core/context.js";
import { DEFAULT_MAX_TEXT_BYTES } from "../core/inputs.js";
import type { RelateFacts } from "../core/relate-facts.js";
import { describeEmbedder, validateEmbedder } from "../embed/check-vectors.js";
import type { Embedder } from "../embed/embedder.js";
import {
  createLocalEmbedder,
  DEFAULT_LOCAL_MODEL_ID,
  type LocalEmbedderOptions,
  localEmbedderFor,
} from "../embed/local/local-embedder.js";
import { isLucidError, LucidError } from "../errors.js";
import type { Policy } from "../policy/policy.js";
import type { PolicyLayer } from "../policy/policy-layer.js";
import { isResolvedPolicy, resolvePolicy } from "../policy/resolve-policy.js";
import type { EmbedderStamp } from "../store/ports/maintenance.js";
import type { PostgresStoreOptions } from "../store/postgres/pg-options.js";
import type { MemoryStore } from "../store/store.js";
import { isTimeZone } from "../text/expiry-date.js";
import { type LlmOption, llmBinding } from "./llm-option.js";
import { isStoreInstance, openStore } from "./open-store.js";

export interface MemoryOptions {
  /** The SQLite file. Default `~/.lucid/lucid.db`; `":memory:"` for a throw-away store. Ignored with `store`. */
  path?: string;
  /**
   * Where the memories live instead of the SQLite file: a PostgreSQL URL (`"postgres://…"`), a
   * PostgreSQL store's settings (`{ provider: "postgres", url, pool }`), or a store instance. The
   * memory's `close()` closes it, whichever it is.
   */
  store?: MemoryStore | string | PostgresStoreConfig;
  /**
   * Default: the local model the store was written with, and for a new store MiniLM
   * (all-MiniLM-L6-v2, 384-d, offline). A store USE lite wrote keeps USE lite until `reembed()`
   * with `createLocalEmbedder()` moves it.
   */
  embedder?: Embedder;
  /** Settings of that default local embedder (ignored with `embedder`). */
  localEmbedder?: LocalEmbedderOptions;
  clock?: Clock;
  /**
   * The policy: a layer over the defaults, in the shape of `lucid.config.json`'s `policy`
   * (`categories`, `secrets`, dream thresholds, `gate`), or a policy `resolvePolicy()` made (from
   * the config, a project's Mem0 retention files, a policy file), used as it is.
   */
  policy?: PolicyLayer | Policy;
  /** Longest memory text accepted, in UTF-8 bytes. Default 32 KiB. */
  maxTextBytes?: number;
  /** The IANA time zone in which an expiry day ends (`"Europe/Paris"`). Default UTC. */
  timeZone?: string;
  /**
   * The optional LLM, for `add` with `infer: true`, dream's judge (`dream.plan({ llm: true })`) and
   * the sleep diary's narrative: an object with `complete()`, Lucid's settings
   * (`{ provider: "openai-compatible", baseURL, model, apiKey }` or `{ provider: "anthropic", model,
   * apiKey }`), or Mem0's `{ provider: "openai", config: { apiKey, model } }`. Without one, every
   * feature takes its deterministic path and `infer: true` fails with LLM_NOT_CONFIGURED.
   */
  llm?: LlmOption;
  /** Most LLM calls one run (an add, a dream, a sleep sweep) may make. Default 20, or the settings' `maxCallsPerRun`. */
  maxLlmCallsPerRun?: number;
  /** Every dream asks the LLM to judge its review tier (the config's `dream.llm`); a plan's `llm` option overrides it. */
  dreamLlm?: boolean;
  /** Mem0's extraction instructions (`customPrompt` is its older name), appended to the extraction prompt. */
  customInstructions?: string;
  /** Open the SQLite file read-only: reads work, writes fail with STORE_READ_ONLY. */
  readOnly?: boolean;
  /** How long a write waits for another process's lock on the SQLite file. Default 5000 ms. */
  busyTimeoutMs?: number;
  /**
   * Open a store written by another embedder instead of failing with EMBEDDER_MISMATCH, in order
   * to `reembed()` it. Until that finishes, anything that embeds fails with EMBEDDER_MISMATCH.
   */
  allowEmbedderChange?: boolean;
}

/** A PostgreSQL store's settings, as `lucid.config.json`'s `store` gives them. */
export interface PostgresStoreConfig extends PostgresStoreOptions {
  readonly provider: "postgres";
}

/** Dream's relation judge, loaded by the first add that extracts facts. */
const relateFacts: RelateFacts = async (input) =>
  (await import("../dream/relate-facts.js")).relateFacts(input);

/** Mem0 keeps the last 10 messages of each session scope. */
const MESSAGES_PER_SESSION = 10;

export async function createContext(options: MemoryOptions): Promise<MemoryContext> {
  const maxTextBytes = options.maxTextBytes ?? DEFAULT_MAX_TEXT_BYTES;
  if (!Number.isInteger(maxTextBytes) || maxTextBytes <= 0) {
    throw new LucidError("INVALID_ARGUMENT", `maxTextBytes must be a positive integer, got ${maxTextBytes}.`);
  }
  const timeZone = options.timeZone ?? "UTC";
  if (typeof timeZone !== "string" || !isTimeZone(timeZone)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `timeZone must be an IANA time zone such as "UTC" or "Europe/Paris", got ${JSON.stringify(timeZone)}.`,
    );
  }
  const policy = isResolvedPolicy(options.policy)
    ? options.policy
    : await resolvePolicy(options.policy === undefined ? {} : { sdk: options.policy });
  if (policy.secrets.extraPatterns.length > 0 || policy.secrets.disabledRules.length > 0) {
    // A configured detector is checked now, so a bad pattern fails the open, not the first write;
    // the default one is loaded only by the first write or scan that needs it.
    const { secretsGuardOf } = await import("../core/secrets-guard.js");
    secretsGuardOf({ policy });
  }
  // Checked before the store opens: a bad setting fails the open, not the first add.
  const llm = llmBinding(options);
  if (options.dreamLlm === true && llm === undefined) {
    throw new LucidError(
      "LLM_NOT_CONFIGURED",
      "dreamLlm asks an LLM to judge every dream's review tier, and no llm is given. Pass llm too, or leave dreamLlm out.",
    );
  }
  const owned = options.store === undefined || !isStoreInstance(options.store);
  const store = await openStore(options);
  let embedder: Embedder;
  let defaultLocal: EmbedderStamp | null = null;
  if (options.embedder === undefined) {
    const recorded = await store.embedderStamp().catch(async (error: unknown) => {
      if (owned) await store.close();
      throw error;
    });
    embedder = localEmbedderFor(recorded?.id ?? null, options.localEmbedder);
    // A store an older local model wrote: `status` says that `reembed` would move it.
    if (embedder.id !== DEFAULT_LOCAL_MODEL_ID) defaultLocal = describeEmbedder(createLocalEmbedder());
  } else {
    embedder = validateEmbedder(options.embedder);
  }
  const embedderStamp = describeEmbedder(embedder);
  let staleEmbedder: EmbedderStamp | null = null;
  try {
    await store.bindEmbedder(embedderStamp);
  } catch (error) {
    if (options.allowEmbedderChange === true && isLucidError(error, "EMBEDDER_MISMATCH")) {
      staleEmbedder = await store.embedderStamp();
    } else {
      if (owned) await store.close();
      throw error;
    }
  }
  return {
    embedderStamp,
    staleEmbedder,
    defaultLocal,
    store,
    embedder,
    clock: options.clock ?? systemClock,
    policy,
    maxTextBytes,
    timeZone,
    messagesPerSession: MESSAGES_PER_SESSION,
    relateFacts,
    ...(llm === undefined ? {} : { llm, dreamLlm: options.dreamLlm === true }),
  };
}
