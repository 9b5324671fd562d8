/**
 * The composition root: the one place that chooses defaults (SQLite file, local embedder, system
 * clock, default categories) for whatever the caller did not pass.
 *
 * @module
 */

import { mkdirSync } from "node:fs";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import { type Clock, systemClock } from "../clock.js";
import { describeEmbedder, validateEmbedder } from "../embed/check-vectors.js";
import type { Embedder } from "../embed/embedder.js";
import { createLocalEmbedder } from "../embed/local/use-lite-embedder.js";
import { isLucidError, LucidError } from "../errors.js";
import { type CategoryPolicy, type CategoryTable, DEFAULT_CATEGORIES } from "../policy/categories.js";
import { createSqliteStore } from "../store/sqlite/sqlite-store.js";
import type { EmbedderStamp, MemoryStore } from "../store/store.js";
import type { MemoryContext } from "./context.js";
import { DEFAULT_MAX_TEXT_BYTES } from "./inputs.js";
import { createSecretsGuard, type SecretsPolicy } from "./secrets-guard.js";

export interface MemoryOptions {
  /** The SQLite file. Default `~/.lucid/lucid.db`; `":memory:"` for a throw-away store. Ignored with `store`. */
  path?: string;
  /** A store instance (e.g. PostgreSQL); replaces the SQLite default. */
  store?: MemoryStore;
  /** Default: the local Universal Sentence Encoder lite (512-d, offline). */
  embedder?: Embedder;
  clock?: Clock;
  policy?: {
    /** Merged over the default categories; a category given here replaces its defaults field by field. */
    categories?: Record<string, Partial<CategoryPolicy>>;
    /** Credentials in new text: `onAdd` redact (default) / reject / allow; extra patterns; disabled rule ids. */
    secrets?: SecretsPolicy;
  };
  /** Longest memory text accepted, in UTF-8 bytes. Default 32 KiB. */
  maxTextBytes?: number;
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

export const DEFAULT_STORE_PATH = join(homedir(), ".lucid", "lucid.db");

const MESSAGES_PER_SESSION = 10;

export async function createContext(options: MemoryOptions): Promise<MemoryContext> {
  const embedder =
    options.embedder === undefined ? createLocalEmbedder() : validateEmbedder(options.embedder);
  const maxTextBytes = options.maxTextBytes ?? DEFAULT_MAX_TEXT_BYTES;
  if (!Number.isInteger(maxTextBytes) || maxTextBytes <= 0) {
    throw new LucidError("INVALID_ARGUMENT", `maxTextBytes must be a positive integer, got ${maxTextBytes}.`);
  }
  const categories = mergeCategories(options.policy?.categories);
  const secrets = createSecretsGuard(options.policy?.secrets);
  const store = options.store ?? openDefaultStore(options);
  const embedderStamp = describeEmbedder(embedder);
  let staleEmbedder: EmbedderStamp | null = null;
  try {
    await store.bindEmbedder(embedderStamp);
  } catch (error) {
    if (options.allowEmbedderChange === true && isLucidError(error, "EMBEDDER_MISMATCH")) {
      staleEmbedder = await store.embedderStamp();
    } else {
      if (options.store === undefined) await store.close();
      throw error;
    }
  }
  return {
    embedderStamp,
    staleEmbedder,
    store,
    embedder,
    clock: options.clock ?? systemClock,
    categories,
    secrets,
    maxTextBytes,
    messagesPerSession: MESSAGES_PER_SESSION,
  };
}

function openDefaultStore(options: MemoryOptions): MemoryStore {
  const path = options.path ?? DEFAULT_STORE_PATH;
  if (path !== ":memory:" && options.readOnly !== true) mkdirSync(dirname(path), { recursive: true });
  return createSqliteStore({ path, readOnly: options.readOnly, busyTimeoutMs: options.busyTimeoutMs });
}

function mergeCategories(overrides: Record<string, Partial<CategoryPolicy>> | undefined): CategoryTable {
  const merged: Record<string, CategoryPolicy> = { ...DEFAULT_CATEGORIES };
  for (const [name, override] of Object.entries(overrides ?? {})) {
    if (!/^[a-z][a-z0-9_]*$/.test(name)) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `Category names are lower_snake_case; got ${JSON.stringify(name)}.`,
      );
    }
    const base = merged[name] ?? { importance: 0.5, ttlDays: null, immutable: false };
    const next = { ...base, ...override };
    if (next.ttlDays !== null && !(Number.isFinite(next.ttlDays) && next.ttlDays > 0)) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `Category ${name}: ttlDays must be a positive number or null.`,
      );
    }
    merged[name] = Object.freeze(next);
  }
  return Object.freeze(merged);
}
