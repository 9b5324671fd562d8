/**
 * Dreams over HTTP, as a person reviews them: plan a scope (kept by the server, shown masked with
 * the texts of every memory it names), apply it by id with the person's decisions (each conflict's
 * A/B/skip, the review items accepted, the kinds to include), list and show runs, undo one, and ask
 * the gate. Every run and plan is the caller's scope's: another scope's run reads as unknown.
 *
 * @module
 */

import type { Hono } from "hono";
import { type Scope, scopeFromOptions, scopeOfRow, scopeToOptions, withinScope } from "../../core/scope.js";
import { acceptReview } from "../../dream/accept-review.js";
import { CONFLICT_CHOICES, type ConflictChoice, conflictKey } from "../../dream/apply/decisions.js";
import type { DreamRun } from "../../dream/dream-run.js";
import { ACTION_KINDS } from "../../dream/parse-plan.js";
import type { DreamAction, DreamPlan } from "../../dream/plan.js";
import { renderReport } from "../../dream/render-report.js";
import type { CallScope } from "../../edge/call-scope.js";
import { LucidError } from "../../errors.js";
import type { Filters } from "../../filters/filter.js";
import type { MemoryChange } from "../../store/ports/runs.js";
import { booleanField, numberField, stringField } from "../body-fields.js";
import { withForceHint } from "../force-hint.js";
import { memoryOut, type Wire } from "../mem0-shapes.js";
import { readBody } from "../read-body.js";
import { namedScope, requestScope } from "../request-scope.js";
import type { Caller, RestDeps, RestEnv } from "../rest-env.js";

/** The scope a request names (body or query), inside its key's. */
function scopeOfRequest(
  deps: RestDeps,
  caller: Caller,
  source: Readonly<Record<string, unknown>>,
): CallScope {
  return requestScope(deps, caller, namedScope(source));
}

const ownerOf = (caller: Caller) => caller.keyId ?? "";

/**
 * The texts of every memory a plan names (as they are now, within `filters`), in the platform's
 * shape, so a page can show them side by side.
 */
async function memoriesOf(deps: RestDeps, plan: DreamPlan, filters: Filters): Promise<Record<string, Wire>> {
  const ids = [
    ...new Set(
      [...plan.actions, ...plan.review.map((item) => item.proposal)].flatMap((action) => action.ids),
    ),
  ];
  if (ids.length === 0) return {};
  // Expired memories too: a plan prunes them.
  const { results } = await deps.memory.getAll({
    filters: { AND: [filters, { id: { in: ids } }] },
    pageSize: ids.length,
    showExpired: true,
  });
  return Object.fromEntries(results.map((item) => [item.id, memoryOut(item)]));
}

function conflictsField(body: Record<string, unknown>): Record<string, ConflictChoice> {
  const value = body.conflicts;
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      'conflicts must be an object of "<idA>:<idB>": "A" | "B" | "skip", e.g. {"3f…:9c…": "B"}.',
      { details: { field: "conflicts" } },
    );
  }
  const choices: Record<string, ConflictChoice> = {};
  for (const [key, choice] of Object.entries(value)) {
    if (!(CONFLICT_CHOICES as readonly unknown[]).includes(choice)) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `conflicts[${JSON.stringify(key)}] must be "A", "B" or "skip", got ${JSON.stringify(choice)}.`,
        { details: { field: "conflicts" } },
      );
    }
    choices[key] = choice as ConflictChoice;
  }
  return choices;
}

/** A list of indices into the plan's `items` ("review items", "actions"), each in range. */
function indexList(body: Record<string, unknown>, name: string, size: number, items: string): number[] {
  const value = body[name];
  if (value === undefined || value === null) return [];
  if (size === 0 && !(Array.isArray(value) && value.length === 0)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `This plan has no ${items}, so ${name} has nothing to name: leave it out (or send []).`,
      { details: { field: name } },
    );
  }
  if (
    !Array.isArray(value) ||
    value.some((index) => !Number.isInteger(index) || index < 0 || index >= size)
  ) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `${name} must be a list of indices of the plan's ${items}, from 0 to ${size - 1} (it has ${size}), e.g. [0, 2].`,
      { details: { field: name } },
    );
  }
  return [...new Set(value as number[])];
}

function includeField(body: Record<string, unknown>): DreamAction["kind"][] | undefined {
  const value = body.include;
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((kind) => !(ACTION_KINDS as readonly unknown[]).includes(kind))) {
    throw new LucidError("INVALID_ARGUMENT", `include must be a list of ${ACTION_KINDS.join(", ")}.`, {
      details: { field: "include" },
    });
  }
  return [...new Set(value as DreamAction["kind"][])];
}

/** A conflict key must name a conflict the plan (with the review items accepted) has. */
function checkConflictKeys(plan: DreamPlan, conflicts: Record<string, ConflictChoice>): void {
  const known = new Set(
    plan.actions.flatMap((action) => (action.kind === "conflict" ? [conflictKey(action)] : [])),
  );
  for (const key of Object.keys(conflicts)) {
    if (!known.has(key)) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `conflicts names ${JSON.stringify(key)}, which is not a conflict of this plan (or of the review items accepted): use the "<ids[0]>:<ids[1]>" of a conflict action.`,
        { details: { field: "conflicts", key } },
      );
    }
  }
}

/**
 * A memory a run touched, as the wire shows it: its text and fields before the run (not the
 * store's preimage: no vector, no entity links) and what the run left.
 */
export function changeOut(change: MemoryChange) {
  const row = change.before?.row;
  return {
    memoryId: change.memoryId,
    before:
      row === undefined
        ? null
        : {
            text: row.text,
            category: row.category,
            metadata: row.metadata,
            createdAt: row.createdAt,
            updatedAt: row.updatedAt,
            expiresAt: row.expiresAt,
            ...scopeOfRow(row),
          },
    after: change.after,
  };
}

/** A run as a list shows it: everything but the plan and the per-action outcomes. */
function runSummary(run: DreamRun): Wire {
  return {
    id: run.id,
    scope: run.scope,
    scopeKey: run.scopeKey,
    mode: run.mode,
    counts: run.outcome.counts,
    actions: run.outcome.actions.filter((action) => action.status === "applied").length,
    startedAt: run.startedAt,
    committedAt: run.committedAt,
    undoneAt: run.undoneAt,
  };
}

/** The run, when it belongs to the caller's scope; otherwise RUN_NOT_FOUND, as for an unknown id. */
async function runInScope(deps: RestDeps, caller: Caller, runId: string) {
  const unknown = () =>
    new LucidError(
      "RUN_NOT_FOUND",
      `No dream run ${JSON.stringify(runId)}${caller.bound === undefined ? "" : " in your scope"}: list the runs with GET /lucid/v1/dream/runs.`,
      { details: { runId } },
    );
  const bound: Scope = caller.bound === undefined ? {} : scopeFromOptions(caller.bound);
  let shown: Awaited<ReturnType<RestDeps["memory"]["dream"]["show"]>>;
  try {
    shown = await deps.memory.dream.show(runId);
  } catch (error) {
    if (error instanceof LucidError && error.code === "RUN_NOT_FOUND") throw unknown();
    throw error;
  }
  if (!withinScope(shown.run.scope, bound)) throw unknown();
  return shown;
}

export function dreamRoutes(app: Hono<RestEnv>, deps: RestDeps): void {
  app.post("/lucid/v1/dream/plan", async (c) => {
    const body = await readBody(c, deps);
    const caller = c.get("caller");
    const scope = scopeOfRequest(deps, caller, body);
    const llm = booleanField(body, "llm");
    const plan = await deps.memory.dream.plan(scope.options, llm === undefined ? {} : { llm });
    const kept = deps.plans.keep(plan, ownerOf(caller));
    const [shownPlan, memories] = await Promise.all([
      deps.shown(plan),
      memoriesOf(deps, plan, scope.filters),
    ]);
    return c.json({
      ...kept,
      plan: shownPlan,
      memories: await deps.shown(memories),
      report: renderReport(shownPlan),
    });
  });

  app.post("/lucid/v1/dream/apply", async (c) => {
    const body = await readBody(c, deps);
    const caller = c.get("caller");
    const planId = stringField(body, "planId");
    if (planId === undefined) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        'planId is required: plan first (POST /lucid/v1/dream/plan), then {"planId": "plan-…", "conflicts": {…}, "accept": [0], "decline": [2]}.',
      );
    }
    // Out of the store while it applies: a second apply of this id meanwhile finds no plan.
    const taken = deps.plans.take(planId, ownerOf(caller));
    let result: Awaited<ReturnType<RestDeps["memory"]["dream"]["apply"]>>;
    try {
      const kept = taken.plan;
      // Declined by their index in the plan as made: accepted review items join after those.
      const decline = indexList(body, "decline", kept.actions.length, "actions");
      const plan = acceptReview(kept, indexList(body, "accept", kept.review.length, "review items"));
      const conflicts = conflictsField(body);
      checkConflictKeys(plan, conflicts);
      const include = includeField(body);
      result = await deps.memory.dream.apply(
        plan,
        { conflicts, decline, ...(include === undefined ? {} : { include }) },
        { mode: "interactive" },
      );
    } catch (error) {
      taken.restore();
      throw error;
    }
    // A plan applies once; one that changed nothing (every action left out or stale) may be applied again.
    if (result.runId === null) taken.restore();
    return c.json({ applied: result.runId !== null, ...result });
  });

  app.get("/lucid/v1/dream/runs", async (c) => {
    const params = c.req.query();
    const caller = c.get("caller");
    const limit = numberField(params, "limit", { min: 1, max: 200, integer: true }) ?? 20;
    const named = namedScope(params);
    // Without a key and without a scope: every run of the store (this machine's user sees all).
    const within: Scope =
      caller.bound === undefined && Object.keys(named).length === 0 && Object.keys(deps.defaults).length === 0
        ? {}
        : scopeOfRequest(deps, caller, params).scope;
    // Within the scope, in the store: however many runs other scopes made since, these are found.
    const runs = await deps.memory.dream.runs(
      Object.keys(within).length === 0 ? undefined : scopeToOptions(within),
      { limit, nested: true },
    );
    return c.json({ runs: runs.map(runSummary) });
  });

  app.get("/lucid/v1/dream/runs/:id", async (c) => {
    const shown = await runInScope(deps, c.get("caller"), c.req.param("id"));
    // The memories its actions name as they are now: a conflict's winner, a skipped action's
    // memories — the ones the run did not touch, so it kept no text of.
    const named = await memoriesOf(deps, shown.run.plan, { ...shown.run.scope });
    return c.json(await deps.shown({ run: shown.run, memories: shown.memories.map(changeOut), named }));
  });

  app.post("/lucid/v1/dream/runs/:id/undo", async (c) => {
    const body = await readBody(c, deps);
    const { run } = await runInScope(deps, c.get("caller"), c.req.param("id"));
    const force = booleanField(body, "force") ?? false;
    return c.json(await withForceHint(deps.memory.dream.undo(run.id, { force })));
  });

  app.get("/lucid/v1/dream/gate", async (c) => {
    const scope = scopeOfRequest(deps, c.get("caller"), c.req.query());
    return c.json(await deps.memory.dream.gate(scope.options, { countAlways: true }));
  });
}
