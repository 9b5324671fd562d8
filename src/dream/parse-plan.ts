/**
 * Plans are parsed, not trusted: a plan can come back from a file, an HTTP client or a web page, so
 * `apply` runs only what `parsePlan` returns. Every action is checked against the schema of
 * docs/dream-plan.md — its kind, ids, reasons and texts — and the whole plan is copied and frozen,
 * so nothing the caller still holds can change it afterwards.
 *
 * @module
 */

import { requireScope, SCOPE_KEYS, type Scope, scopeValue } from "../core/scope.js";
import { isLucidError, LucidError } from "../errors.js";
import { deepFreeze } from "../freeze.js";
import { isResolvedPolicy } from "../policy/resolve-policy.js";
import {
  DELETE_REASONS,
  type DreamAction,
  type DreamPlan,
  JUDGE_OUTCOMES,
  type JudgeRecord,
  PLAN_VERSION,
  type PlanStats,
  REVIEW_KINDS,
  REWRITE_REASONS,
  type ReviewItem,
  type SeenMemory,
  type Why,
} from "./plan.js";
import { checkOwners } from "./plan-owners.js";

export const ACTION_KINDS = ["delete", "merge", "conflict", "rewrite"] as const;

type Json = Record<string, unknown>;

/** Plans this module returned: frozen, so still exactly what was checked. */
const parsed = new WeakSet<object>();

/**
 * The plan as frozen, typed data, or `INVALID_PLAN` naming what is wrong (the action's index and
 * kind, and the field).
 *
 * @example
 * const plan = parsePlan(JSON.parse(readFileSync("plan.json", "utf8")));
 * await memory.dream.apply(plan);
 */
export function parsePlan(input: unknown): DreamPlan {
  if (typeof input === "object" && input !== null && parsed.has(input)) return input as DreamPlan;
  const plan = object(input, "the plan");
  if (plan.version !== PLAN_VERSION) {
    fail(
      `This is not a version ${PLAN_VERSION} dream plan (version ${JSON.stringify(plan.version)}). Make a new one with dream.plan() (lucid dream --dry-run --json).`,
    );
  }
  const scope = readScope(plan.scope);
  const now = instant(plan.now, "now");
  const reviewed = count(plan.reviewed, "reviewed");
  if (!Array.isArray(plan.actions)) fail("actions must be a list of actions.");
  const actions = plan.actions.map((action, index) => readAction(action, index));
  const seenInput = object(plan.seen, "seen");
  const seen: Record<string, SeenMemory> = {};
  const owner = new Map<string, number>();
  actions.forEach((action, index) => {
    for (const id of action.ids) {
      const earlier = owner.get(id);
      if (earlier !== undefined) {
        failAction(
          index,
          action.kind,
          `memory ${id} is already in action ${earlier}; a memory is in at most one action`,
        );
      }
      owner.set(id, index);
      seen[id] = readSeen(seenInput[id], id, index, action.kind);
    }
    checkOwners(action, seen, scope, (problem, ids) => failAction(index, action.kind, problem, { ids }));
  });
  // Optional: a plan written by hand, or before review items existed, has none.
  if (plan.review !== undefined && !Array.isArray(plan.review))
    fail("review must be a list of review items.");
  const review = ((plan.review as unknown[] | undefined) ?? []).map((item, index) => {
    const read = readReviewItem(item, index);
    for (const id of read.proposal.ids) {
      if (owner.has(id))
        fail(
          `review item ${index} names memory ${id}, which is already in an action or an earlier review item.`,
        );
      owner.set(id, -1);
      seen[id] = guard(() => readSeen(seenInput[id], id, index, read.kind), `review item ${index}`);
    }
    checkOwners(read.proposal, seen, scope, (problem, ids) =>
      fail(`review item ${index} (${read.kind}) ${problem}.`, { review: index, kind: read.kind, ids }),
    );
    return read;
  });
  const result: DreamPlan = deepFreeze({
    version: PLAN_VERSION,
    scope,
    now,
    // A policy `resolvePolicy` made is already frozen data; anything else is copied as JSON.
    policy:
      isResolvedPolicy(plan.policy) && Object.isFrozen(plan.policy)
        ? plan.policy
        : jsonCopy(plan.policy ?? null, "policy"),
    reviewed,
    actions,
    review,
    seen,
    stats: readStats(plan.stats),
    ...(plan.judge === undefined ? {} : { judge: readJudge(plan.judge) }),
  });
  parsed.add(result);
  return result;
}

function readScope(raw: unknown): Scope {
  const scope = scopeObject(raw, "scope");
  guard(() => requireScope(scope, "A dream plan"), "scope");
  return scope;
}

/** A `{ user_id?, agent_id?, app_id?, run_id? }` object: the plan's scope, or a seen memory's owner. */
function scopeObject(raw: unknown, field: string): Scope {
  const given = object(raw, field);
  const scope: Scope = {};
  for (const [key, value] of Object.entries(given)) {
    const scopeKey = SCOPE_KEYS.find((name) => name === key);
    if (scopeKey === undefined)
      fail(`${field} has an unknown key ${JSON.stringify(key)}; scope keys are ${SCOPE_KEYS.join(", ")}.`);
    const text = guard(() => scopeValue(scopeKey, value), `${field}.${key}`);
    if (text !== undefined) scope[scopeKey] = text;
  }
  return scope;
}

function readAction(raw: unknown, index: number): DreamAction {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    failAction(index, undefined, "is not an object");
  const action = raw as Json;
  const kind = action.kind;
  if (typeof kind !== "string" || !(ACTION_KINDS as readonly string[]).includes(kind)) {
    failAction(
      index,
      undefined,
      `has an unknown kind ${JSON.stringify(kind)}; kinds are ${ACTION_KINDS.join(", ")}`,
    );
  }
  const at = (problem: string): never => failAction(index, kind, problem);
  const ids = readIds(action.ids, at);
  const why = readWhy(action.why, at);
  switch (kind) {
    case "delete": {
      if (ids.length !== 1) at("ids must hold exactly one id");
      const reason = oneOf(action.reason, DELETE_REASONS, "reason", at);
      return { kind, ids: [ids[0] as string], reason, why };
    }
    case "merge": {
      if (ids.length < 2) at("ids must hold at least two ids");
      if (typeof action.keep !== "string" || !ids.includes(action.keep)) at("keep must be one of its ids");
      return { kind, ids, keep: action.keep as string, text: text(action.text, at), why };
    }
    case "conflict": {
      if (ids.length !== 2) at("ids must hold exactly two ids");
      if (typeof action.topic !== "string") at("topic must be a string");
      if (typeof action.suggested !== "string" || !ids.includes(action.suggested))
        at("suggested must be one of its ids");
      return {
        kind,
        ids: [ids[0] as string, ids[1] as string],
        topic: action.topic as string,
        suggested: action.suggested as string,
        why,
      };
    }
    default: {
      if (ids.length !== 1) at("ids must hold exactly one id");
      if (!Array.isArray(action.reasons) || action.reasons.length === 0)
        at("reasons must be a non-empty list");
      const reasons = (action.reasons as unknown[]).map((reason) =>
        oneOf(reason, REWRITE_REASONS, "reasons", at),
      );
      return { kind: "rewrite", ids: [ids[0] as string], text: text(action.text, at), reasons, why };
    }
  }
}

/** The action a review item of each kind proposes. */
const PROPOSAL_OF: Readonly<Record<ReviewItem["kind"], DreamAction["kind"]>> = {
  "possible-duplicate": "merge",
  "possible-conflict": "conflict",
  "possible-injection": "delete",
};

function readReviewItem(raw: unknown, index: number): ReviewItem {
  const at = (problem: string): never => fail(`review item ${index} ${problem}.`);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) at("is not an object");
  const item = raw as Json;
  const kind = oneOf(item.kind, REVIEW_KINDS, "kind", at);
  const proposal = guard(() => readAction(item.proposal, index), `review item ${index}'s proposal`);
  const expected = PROPOSAL_OF[kind];
  if (proposal.kind !== expected) at(`is a ${kind}, so its proposal must be a ${expected}`);
  if (proposal.kind === "delete" && proposal.reason !== "injection")
    at(`is a ${kind}, so its proposal's reason must be injection`);
  return { kind, proposal: proposal as ReviewItem["proposal"], why: readWhy(item.why, at) };
}

function readIds(raw: unknown, at: (problem: string) => never): string[] {
  if (!Array.isArray(raw)) at("ids must be a list of memory ids");
  const ids = raw as unknown[];
  for (const id of ids) {
    if (typeof id !== "string" || id.length === 0 || id.length > 200 || /\s/.test(id)) {
      at(`ids holds ${JSON.stringify(id)}, which is not a memory id`);
    }
  }
  if (new Set(ids).size !== ids.length) at("ids names a memory twice");
  return ids as string[];
}

function readWhy(raw: unknown, at: (problem: string) => never): Why {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw))
    at("why must be { rule, detail, evidence? }");
  const why = raw as Json;
  if (typeof why.rule !== "string" || typeof why.detail !== "string")
    at("why.rule and why.detail must be strings");
  if (why.evidence === undefined) return { rule: why.rule as string, detail: why.detail as string };
  if (typeof why.evidence !== "object" || why.evidence === null || Array.isArray(why.evidence)) {
    at("why.evidence must be an object");
  }
  const evidence: Record<string, string | number | boolean | readonly string[]> = {};
  for (const [key, value] of Object.entries(why.evidence as Json)) {
    const scalar =
      typeof value === "string" ||
      typeof value === "boolean" ||
      (typeof value === "number" && Number.isFinite(value));
    const strings = Array.isArray(value) && value.every((item) => typeof item === "string");
    if (!scalar && !strings) at(`why.evidence.${key} must be a string, number, boolean or list of strings`);
    evidence[key] = strings ? [...(value as string[])] : (value as string | number | boolean);
  }
  return { rule: why.rule as string, detail: why.detail as string, evidence };
}

function readSeen(raw: unknown, id: string, index: number, kind: string): SeenMemory {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    failAction(
      index,
      kind,
      `names memory ${id}, which the plan's seen does not record (its hash and updatedAt)`,
    );
  }
  const seen = raw as Json;
  if (typeof seen.hash !== "string" || typeof seen.updatedAt !== "string") {
    failAction(index, kind, `seen.${id} must have hash and updatedAt strings`);
  }
  const optional = (name: string, ok: (value: unknown) => boolean) => {
    if (seen[name] !== undefined && !ok(seen[name]))
      failAction(index, kind, `seen.${id}.${name} has the wrong type`);
  };
  const stringOrNull = (value: unknown) => value === null || typeof value === "string";
  optional("category", stringOrNull);
  optional("type", stringOrNull);
  optional("createdAt", (value) => typeof value === "string");
  optional("pinned", (value) => typeof value === "boolean");
  const scope = seen.scope === undefined ? undefined : scopeObject(seen.scope, `seen.${id}.scope`);
  const copy: { -readonly [K in keyof SeenMemory]: SeenMemory[K] } = {
    hash: seen.hash as string,
    updatedAt: seen.updatedAt as string,
  };
  if (seen.category !== undefined) copy.category = seen.category as string | null;
  if (seen.type !== undefined) copy.type = seen.type as string | null;
  if (seen.createdAt !== undefined) copy.createdAt = seen.createdAt as string;
  if (seen.pinned !== undefined) copy.pinned = seen.pinned as boolean;
  if (scope !== undefined) copy.scope = scope;
  return copy;
}

function readJudge(raw: unknown): JudgeRecord {
  const judge = object(raw, "judge");
  const at = (problem: string): never => fail(`judge ${problem}.`);
  if (!Array.isArray(judge.decisions)) at("decisions must be a list");
  if (!Array.isArray(judge.errors) || !judge.errors.every((error) => typeof error === "string"))
    at("errors must be a list of strings");
  return {
    model: nonEmpty(judge.model, "model", at),
    calls: count(judge.calls, "judge.calls"),
    requests: count(judge.requests, "judge.requests"),
    failures: count(judge.failures, "judge.failures"),
    inputTokens: count(judge.inputTokens, "judge.inputTokens"),
    outputTokens: count(judge.outputTokens, "judge.outputTokens"),
    unjudged: count(judge.unjudged, "judge.unjudged"),
    errors: [...(judge.errors as string[])],
    decisions: (judge.decisions as unknown[]).map((rawDecision, index) => {
      const decision = object(rawDecision, `judge.decisions[${index}]`);
      const atDecision = (problem: string): never => fail(`judge decision ${index} ${problem}.`);
      const wording = decision.wording;
      if (wording !== undefined && wording !== "llm" && wording !== "rules")
        atDecision('wording must be "llm" or "rules"');
      if (decision.wordingNote !== undefined && typeof decision.wordingNote !== "string")
        atDecision("wordingNote must be a string");
      if (typeof decision.reason !== "string") atDecision("reason must be a string");
      return {
        kind: oneOf(decision.kind, REVIEW_KINDS, "kind", atDecision),
        ids: readIds(decision.ids, atDecision),
        verdict: nonEmpty(decision.verdict, "verdict", atDecision),
        outcome: oneOf(decision.outcome, JUDGE_OUTCOMES, "outcome", atDecision),
        reason: decision.reason as string,
        model: nonEmpty(decision.model, "model", atDecision),
        promptHash: nonEmpty(decision.promptHash, "promptHash", atDecision),
        ...(wording === undefined ? {} : { wording: wording as "llm" | "rules" }),
        ...(decision.wordingNote === undefined ? {} : { wordingNote: decision.wordingNote as string }),
      };
    }),
  };
}

function readStats(raw: unknown): PlanStats {
  const stats = object(raw, "stats");
  const deletes = object(stats.deletes, "stats.deletes");
  // `injection` came with possible-injection review items: a plan made before has no count for it.
  const byReason = Object.fromEntries(
    DELETE_REASONS.map((reason) => [
      reason,
      reason === "injection" && deletes[reason] === undefined
        ? 0
        : count(deletes[reason], `stats.deletes.${reason}`),
    ]),
  ) as Record<(typeof DELETE_REASONS)[number], number>;
  return {
    reviewed: count(stats.reviewed, "stats.reviewed"),
    deletes: byReason,
    merges: count(stats.merges, "stats.merges"),
    merged: count(stats.merged, "stats.merged"),
    conflicts: count(stats.conflicts, "stats.conflicts"),
    rewrites: count(stats.rewrites, "stats.rewrites"),
    pinnedSkipped: count(stats.pinnedSkipped, "stats.pinnedSkipped"),
    elapsedMs: count(stats.elapsedMs, "stats.elapsedMs"),
  };
}

function text(raw: unknown, at: (problem: string) => never): string {
  if (typeof raw !== "string" || raw.trim() === "") at("text must be a non-empty string");
  return raw as string;
}

function nonEmpty(raw: unknown, field: string, at: (problem: string) => never): string {
  if (typeof raw !== "string" || raw.trim() === "") at(`${field} must be a non-empty string`);
  return raw as string;
}

function oneOf<T extends string>(
  raw: unknown,
  choices: readonly T[],
  field: string,
  at: (problem: string) => never,
): T {
  if (typeof raw !== "string" || !(choices as readonly string[]).includes(raw)) {
    at(`${field} ${JSON.stringify(raw)} is not one of ${choices.join(", ")}`);
  }
  return raw as T;
}

function object(raw: unknown, what: string): Json {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) fail(`${what} must be an object.`);
  return raw as Json;
}

function count(raw: unknown, field: string): number {
  if (typeof raw !== "number" || !Number.isInteger(raw) || raw < 0) {
    fail(`${field} must be a whole number of 0 or more, got ${JSON.stringify(raw)}.`);
  }
  return raw as number;
}

function instant(raw: unknown, field: string): string {
  if (typeof raw !== "string" || Number.isNaN(Date.parse(raw))) {
    fail(`${field} must be an ISO-8601 time, got ${JSON.stringify(raw)}.`);
  }
  return new Date(raw as string).toISOString();
}

/** A JSON value's copy (the policy a plan records is data, never code or a live object). */
function jsonCopy(raw: unknown, field: string): unknown {
  try {
    return JSON.parse(JSON.stringify(raw));
  } catch (error) {
    throw new LucidError("INVALID_PLAN", `${field} must be JSON data.`, { cause: error });
  }
}

function guard<T>(fn: () => T, field: string): T {
  try {
    return fn();
  } catch (error) {
    if (!isLucidError(error)) throw error;
    throw new LucidError("INVALID_PLAN", `The plan's ${field} is not valid: ${error.message}`, {
      cause: error,
    });
  }
}

function fail(message: string, details?: Record<string, unknown>): never {
  throw new LucidError("INVALID_PLAN", message, details === undefined ? {} : { details });
}

function failAction(
  index: number,
  kind: string | undefined,
  problem: string,
  extra: Record<string, unknown> = {},
): never {
  const name = kind === undefined ? `Action ${index}` : `Action ${index} (${kind})`;
  throw new LucidError(
    "INVALID_PLAN",
    `${name} ${problem}. Make a new plan with dream.plan() (lucid dream --dry-run --json).`,
    {
      details: { action: index, ...(kind === undefined ? {} : { kind }), ...extra },
    },
  );
}
