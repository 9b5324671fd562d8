/**
 * What the configured LLM has cost, per feature, kept in the store so `lucid status` shows it
 * whichever process made the calls: calls, failed calls and tokens, the model last used and when.
 *
 * Kept in the store's namespaced state under no workspace (the state sub-port stores small JSON
 * values by namespace and key; no workspace path is empty). Each call adds to its feature's record
 * in a transaction of its own, which first writes the feature's lock row: on PostgreSQL (read
 * committed) that row lock makes a second process's add wait until the first commits, so it then
 * reads the first's total instead of overwriting it; SQLite's writer lock does the same.
 *
 * @module
 */

import type { MemoryStore } from "../store/store.js";

export const LLM_FEATURES = ["add", "dream", "sleep"] as const;
/** Which part of Lucid called: `add` (extraction and judging in `infer: true`), `dream` (the judge), `sleep` (the diary). */
export type LlmFeature = (typeof LLM_FEATURES)[number];

export interface LlmSpend {
  /** Completions asked for: what `llm.maxCallsPerRun` caps. */
  calls: number;
  /** HTTP requests they took, retries and re-sends included. */
  requests: number;
  /** Calls that failed (timeout, refusal, an answer that was not the JSON asked for). */
  failures: number;
  inputTokens: number;
  outputTokens: number;
}

/** What a run's LLM calls cost, and the model: an add's `llm`, a plan's `judge`, a sweep's `llm`. */
export interface LlmCost extends Readonly<LlmSpend> {
  readonly model: string;
}

export interface LlmFeatureUsage extends LlmSpend {
  /** The model of the last call. */
  readonly model: string | null;
  /** When the last call ended (ISO). */
  readonly lastCallAt: string | null;
}

const STORE_WIDE = "";
const NAMESPACE = "llm-usage";
const LOCKS = "llm-usage-lock";

/**
 * Nothing spent yet.
 *
 * @example
 * const spent = emptySpend(); // => { calls: 0, requests: 0, failures: 0, inputTokens: 0, outputTokens: 0 }
 */
export function emptySpend(): LlmSpend {
  return { calls: 0, requests: 0, failures: 0, inputTokens: 0, outputTokens: 0 };
}

/**
 * Adds one call to the feature's totals.
 *
 * @example
 * await recordLlmUsage(store, "dream", { calls: 1, requests: 1, failures: 0, inputTokens: 812, outputTokens: 64 }, { model: "gpt-4o-mini", at });
 */
export async function recordLlmUsage(
  store: MemoryStore,
  feature: LlmFeature,
  spend: LlmSpend,
  last: { model: string; at: string },
): Promise<void> {
  await store.transaction(async (tx) => {
    // Written before the total is read: see the module's note.
    await tx.putSleepState(STORE_WIDE, LOCKS, [{ key: feature, value: last.at, updatedAt: last.at }]);
    const [record] = await tx.getSleepState(STORE_WIDE, NAMESPACE, [feature]);
    const before = readUsage(record?.value);
    const value: LlmFeatureUsage = {
      calls: before.calls + spend.calls,
      requests: before.requests + spend.requests,
      failures: before.failures + spend.failures,
      inputTokens: before.inputTokens + spend.inputTokens,
      outputTokens: before.outputTokens + spend.outputTokens,
      model: last.model,
      lastCallAt: last.at,
    };
    await tx.putSleepState(STORE_WIDE, NAMESPACE, [{ key: feature, value, updatedAt: last.at }]);
  });
}

/**
 * Every feature's totals (zero for one never called).
 *
 * @example
 * (await readLlmUsage(store)).add.calls; // => 12
 */
export async function readLlmUsage(store: MemoryStore): Promise<Record<LlmFeature, LlmFeatureUsage>> {
  const records = await store.getSleepState(STORE_WIDE, NAMESPACE, LLM_FEATURES);
  const byKey = new Map(records.map((record) => [record.key, record.value]));
  return Object.fromEntries(
    LLM_FEATURES.map((feature) => [feature, readUsage(byKey.get(feature))]),
  ) as Record<LlmFeature, LlmFeatureUsage>;
}

/** A stored record, read defensively: the store keeps values as given. */
function readUsage(value: unknown): LlmFeatureUsage {
  const record = (typeof value === "object" && value !== null ? value : {}) as Record<string, unknown>;
  const count = (key: string) => {
    const n = record[key];
    return typeof n === "number" && Number.isFinite(n) && n >= 0 ? n : 0;
  };
  const text = (key: string) => (typeof record[key] === "string" ? (record[key] as string) : null);
  return {
    calls: count("calls"),
    requests: count("requests"),
    failures: count("failures"),
    inputTokens: count("inputTokens"),
    outputTokens: count("outputTokens"),
    model: text("model"),
    lastCallAt: text("lastCallAt"),
  };
}
