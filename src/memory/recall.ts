/**
 * `recall`: the memories to inject before a turn. The scope's memories nearest the query (twice
 * as many as will be kept, above the threshold, as Mem0's recall over-fetches), plus — with
 * `identityAlwaysInclude` — the scope's identity and configuration memories whether or not the
 * query matched them: who the user is and how things are set up bear on every turn. Then
 * `recall-block.ts` ranks, budgets and renders them.
 *
 * @module
 */

import type { MemoryContext } from "../core/context.js";
import { checkUnitInterval } from "../core/inputs.js";
import {
  requireScope,
  type Scope,
  type ScopeOptions,
  scopeFromOptions,
  scopeToOptions,
} from "../core/scope.js";
import { LucidError } from "../errors.js";
import { getAllMemories } from "./get-all.js";
import {
  ALWAYS_INCLUDED,
  type BlockOptions,
  DEFAULT_CATEGORY_ORDER,
  RECALL_DEFAULTS,
  type RecallCandidate,
  type RecalledMemory,
  selectMemories,
} from "./recall-block.js";
import { searchMemories } from "./search.js";
import type { MemoryItem } from "./types.js";

export interface RecallOptions extends ScopeOptions {
  /** Tokens the memories (and notes) may take, at ~4 characters a token. Default 1500. */
  tokenBudget?: number;
  /** Memories injected at most. Default 15. */
  maxMemories?: number;
  /** Least search score of a memory found by the query. Default 0.2 (measured: BENCHMARKS.md, "Recall threshold"). */
  threshold?: number;
  /** Category ranking, first = most relevant. Default Mem0's (identity, configuration, rule…). */
  categoryOrder?: readonly string[];
  /** Keep identity and configuration memories whatever the query and the budget. Default true. */
  identityAlwaysInclude?: boolean;
}

export interface RecalledMemories {
  readonly scope: Scope;
  readonly memories: RecalledMemory[];
  /** Estimated tokens the memories take. */
  readonly tokens: number;
  /** Distinct memories considered (found by the query or always included). */
  readonly considered: number;
  readonly options: BlockOptions;
}

/**
 * A query longer than this is cut before searching: a pasted log or file is not a better query
 * for being long, and the sentence model reads only its first ~256 word pieces anyway.
 */
export const MAX_QUERY_CHARS = 2000;

/** Identity and configuration memories listed per recall at most. */
const ALWAYS_LISTED = 50;

/**
 * @example
 * const { memories } = await recallMemories(context, "book a table for Friday", { userId: "ana" });
 */
export async function recallMemories(
  context: MemoryContext,
  query: string,
  options: RecallOptions = {},
): Promise<RecalledMemories> {
  const scope = requireScope(scopeFromOptions(options), "recall");
  const block = readBlockOptions(options);
  const threshold = checkUnitInterval(options.threshold ?? RECALL_DEFAULTS.threshold, "threshold");
  const scopeOptions = scopeToOptions(scope);
  const trimmed = typeof query === "string" ? query.trim().slice(0, MAX_QUERY_CHARS) : query;

  const found =
    typeof trimmed === "string" && trimmed === ""
      ? []
      : (
          await searchMemories(context, trimmed as string, {
            ...scopeOptions,
            topK: Math.max(block.maxMemories * 2, 1),
            threshold,
          })
        ).results;
  const always = block.identityAlwaysInclude
    ? (
        await getAllMemories(context, {
          ...scopeOptions,
          filters: { category: { in: [...ALWAYS_INCLUDED] } },
          pageSize: ALWAYS_LISTED,
        })
      ).results
    : [];
  const candidates = new Map<string, RecallCandidate>();
  for (const item of found) candidates.set(item.id, candidate(item, item.score ?? null));
  for (const item of always) {
    // A memory whose credential was redacted ("the wifi password is [REDACTED:password]") is
    // recalled when a turn is about it, not put before every turn.
    if (!candidates.has(item.id) && !REDACTED.test(item.memory))
      candidates.set(item.id, candidate(item, null));
  }
  const { memories, tokens } = selectMemories([...candidates.values()], context.policy.categories, block);
  return { scope, memories, tokens, considered: candidates.size, options: block };
}

const REDACTED = /\[(?:REDACTED|MASKED):[^\]]+\]/u;

function candidate(item: MemoryItem, score: number | null): RecallCandidate {
  const category = typeof item.metadata.category === "string" ? item.metadata.category : null;
  return { id: item.id, memory: item.memory, category, metadata: item.metadata, score };
}

function readBlockOptions(options: RecallOptions): BlockOptions {
  const count = (value: unknown, name: string, fallback: number) => {
    const given = value ?? fallback;
    if (typeof given !== "number" || !Number.isInteger(given) || given < 0) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `recall ${name} must be a whole number of 0 or more, got ${JSON.stringify(value)}.`,
      );
    }
    return given;
  };
  const order = options.categoryOrder ?? DEFAULT_CATEGORY_ORDER;
  if (!Array.isArray(order) || order.some((name) => typeof name !== "string" || name === "")) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `recall categoryOrder must be a list of category names, got ${JSON.stringify(options.categoryOrder)}.`,
    );
  }
  if (options.identityAlwaysInclude !== undefined && typeof options.identityAlwaysInclude !== "boolean") {
    throw new LucidError("INVALID_ARGUMENT", "recall identityAlwaysInclude must be true or false.");
  }
  return {
    tokenBudget: count(options.tokenBudget, "tokenBudget", RECALL_DEFAULTS.tokenBudget),
    maxMemories: count(options.maxMemories, "maxMemories", RECALL_DEFAULTS.maxMemories),
    categoryOrder: order,
    identityAlwaysInclude: options.identityAlwaysInclude ?? true,
  };
}
