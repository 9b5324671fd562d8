/**
 * A dream run as the SDK returns it: the ledger's record (`RunRecord`, JSON) read back into typed
 * data — the plan parsed like any plan, the decisions and the outcome checked.
 *
 * @module
 */

import type { Scope } from "../core/scope.js";
import { LucidError } from "../errors.js";
import type { EmbedderStamp } from "../store/ports/maintenance.js";
import type { JsonObject, JsonValue, RunRecord } from "../store/ports/runs.js";
import type { ActionOutcome, ActionStatus, ApplyCounts, SecretsScrubbed } from "./apply/apply-plan.js";
import type { ApplyDecisions, ConflictChoice } from "./apply/decisions.js";
import { ACTION_KINDS, parsePlan } from "./parse-plan.js";
import type { DreamAction, DreamPlan } from "./plan.js";

export interface DreamRun {
  readonly id: string;
  /** The scope's stable key (`user_id=alice&…`). */
  readonly scopeKey: string;
  readonly scope: Scope;
  /** `interactive`, `yes`, `auto` or `sdk`. */
  readonly mode: string;
  readonly plan: DreamPlan;
  readonly decisions: ApplyDecisions;
  readonly outcome: {
    readonly actions: readonly ActionOutcome[];
    readonly counts: ApplyCounts;
    /** The embedder the preimages' vectors come from (runs recorded before it was kept: undefined). */
    readonly embedder?: EmbedderStamp;
    /** Credentials the run removed, and where else it scrubbed them (runs recorded before: undefined). */
    readonly secrets?: SecretsScrubbed;
  };
  readonly startedAt: string;
  readonly committedAt: string;
  readonly undoneAt: string | null;
}

const COUNT_FIELDS = [
  "merged",
  "pruned",
  "conflictsResolved",
  "conflictsSkipped",
  "rewritten",
  "skipped",
  "stale",
  "finalCount",
] as const satisfies readonly (keyof ApplyCounts)[];
const STATUSES: readonly ActionStatus[] = ["applied", "skipped", "stale"];
const CHOICES: readonly ConflictChoice[] = ["A", "B", "skip"];

/** @example const run = readDreamRun(record); run.outcome.counts.merged; */
export function readDreamRun(record: RunRecord): DreamRun {
  const corrupt = (what: string): never => {
    throw new LucidError("STORE_CORRUPT", `Dream run ${record.id} in the store has a malformed ${what}.`, {
      details: { runId: record.id },
    });
  };
  return {
    id: record.id,
    scopeKey: record.scopeKey,
    scope: record.scope,
    mode: record.mode,
    plan: parsePlan(record.plan),
    decisions: readDecisions(record.decisions, corrupt),
    outcome: readOutcome(record.outcome, corrupt),
    startedAt: record.startedAt,
    committedAt: record.committedAt,
    undoneAt: record.undoneAt,
  };
}

function readDecisions(json: JsonObject, corrupt: (what: string) => never): ApplyDecisions {
  const decisions: { conflicts?: Record<string, ConflictChoice>; include?: DreamAction["kind"][] } = {};
  if (json.conflicts !== undefined) {
    const conflicts = asObject(json.conflicts) ?? corrupt("decisions.conflicts");
    decisions.conflicts = {};
    for (const [key, value] of Object.entries(conflicts)) {
      if (!CHOICES.includes(value as ConflictChoice)) corrupt("decisions.conflicts");
      decisions.conflicts[key] = value as ConflictChoice;
    }
  }
  if (json.include !== undefined) {
    const include = Array.isArray(json.include) ? json.include : corrupt("decisions.include");
    if (!include.every((kind) => (ACTION_KINDS as readonly JsonValue[]).includes(kind)))
      corrupt("decisions.include");
    decisions.include = include as DreamAction["kind"][];
  }
  return decisions;
}

function readOutcome(json: JsonObject, corrupt: (what: string) => never): DreamRun["outcome"] {
  const counts = asObject(json.counts) ?? corrupt("outcome.counts");
  const actions = Array.isArray(json.actions) ? json.actions : corrupt("outcome.actions");
  const embedder = asObject(json.embedder);
  const secrets = json.secrets === undefined ? undefined : readSecrets(json.secrets, corrupt);
  return {
    ...(embedder !== undefined && typeof embedder.id === "string" && typeof embedder.dimension === "number"
      ? { embedder: { id: embedder.id, dimension: embedder.dimension } }
      : {}),
    ...(secrets === undefined ? {} : { secrets }),
    counts: Object.fromEntries(
      COUNT_FIELDS.map((field) => {
        const value = counts[field];
        return [field, typeof value === "number" ? value : corrupt(`outcome.counts.${field}`)];
      }),
    ) as unknown as ApplyCounts,
    actions: actions.map((raw) => {
      const action = asObject(raw) ?? corrupt("outcome.actions");
      const { index, kind, ids, status, note } = action;
      if (
        typeof index !== "number" ||
        !(ACTION_KINDS as readonly JsonValue[]).includes(kind ?? null) ||
        !Array.isArray(ids) ||
        !ids.every((id) => typeof id === "string") ||
        !STATUSES.includes(status as ActionStatus) ||
        (note !== undefined && typeof note !== "string")
      ) {
        corrupt("outcome.actions");
      }
      return {
        index: index as number,
        kind: kind as DreamAction["kind"],
        ids: ids as string[],
        status: status as ActionStatus,
        ...(note === undefined ? {} : { note: note as string }),
      };
    }),
  };
}

const SECRET_COUNTS = ["memories", "history", "messages", "preimages"] as const;

function readSecrets(json: JsonValue, corrupt: (what: string) => never): SecretsScrubbed {
  const secrets = asObject(json) ?? corrupt("outcome.secrets");
  if (typeof secrets.purged !== "boolean") corrupt("outcome.secrets.purged");
  const counts = SECRET_COUNTS.map((field) => {
    const value = secrets[field];
    return [field, typeof value === "number" ? value : corrupt(`outcome.secrets.${field}`)] as const;
  });
  return { ...Object.fromEntries(counts), purged: secrets.purged } as unknown as SecretsScrubbed;
}

function asObject(value: JsonValue | undefined): JsonObject | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as JsonObject)
    : undefined;
}
