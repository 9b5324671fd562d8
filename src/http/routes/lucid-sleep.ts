/**
 * Sleep over HTTP, for the workspace `lucid serve --workspace DIR` names: its status, what a
 * promotion would write (with `MEMORY.md` before and after), the promotion itself, the explanation
 * of one candidate, rolling a run back, a sweep's preview, and the Dream Diary. The workspace's
 * promoted memories live in its scope (default `agent_id=main`): a key may use these routes only
 * when that scope is inside its own.
 *
 * @module
 */

import type { Hono } from "hono";
import { LucidError } from "../../errors.js";
import { booleanField, numberField, stringField } from "../body-fields.js";
import { withForceHint } from "../force-hint.js";
import { readBody } from "../read-body.js";
import type { RestDeps, RestEnv } from "../rest-env.js";
import { workspaceFor } from "../workspace-access.js";

/** The deep phase's knobs a request may turn for one promotion or explanation. */
function deepOptions(body: Readonly<Record<string, unknown>>) {
  const limit = numberField(body, "limit", { min: 1, max: 1000, integer: true });
  const minScore = numberField(body, "minScore", { min: 0, max: 1 });
  const minRecallCount = numberField(body, "minRecallCount", { min: 0, max: 1_000_000, integer: true });
  const minUniqueQueries = numberField(body, "minUniqueQueries", { min: 0, max: 1_000_000, integer: true });
  const includePromoted = booleanField(body, "includePromoted");
  const now = stringField(body, "now");
  if (now !== undefined && Number.isNaN(Date.parse(now))) {
    throw new LucidError("INVALID_ARGUMENT", `now must be an ISO-8601 instant, got ${JSON.stringify(now)}.`);
  }
  return {
    ...(limit === undefined ? {} : { limit }),
    ...(minScore === undefined ? {} : { minScore }),
    ...(minRecallCount === undefined ? {} : { minRecallCount }),
    ...(minUniqueQueries === undefined ? {} : { minUniqueQueries }),
    ...(includePromoted === undefined ? {} : { includePromoted }),
    ...(now === undefined ? {} : { now }),
  };
}

export function sleepRoutes(app: Hono<RestEnv>, deps: RestDeps): void {
  app.get("/lucid/v1/sleep/status", async (c) => {
    const workspace = workspaceFor(deps, c.get("caller"));
    const now = stringField(c.req.query(), "now");
    return c.json(await deps.shown(await workspace.status(now === undefined ? {} : { now })));
  });

  app.post("/lucid/v1/sleep/promote", async (c) => {
    const body = await readBody(c, deps);
    const workspace = workspaceFor(deps, c.get("caller"));
    const apply = booleanField(body, "apply") ?? false;
    return c.json(await deps.shown(await workspace.promote({ ...deepOptions(body), apply, draft: true })));
  });

  app.get("/lucid/v1/sleep/explain", async (c) => {
    const params = c.req.query();
    const workspace = workspaceFor(deps, c.get("caller"));
    const target = stringField(params, "target");
    if (target === undefined || target.trim() === "") {
      throw new LucidError(
        "INVALID_ARGUMENT",
        "target is required: a candidate's key or its address, e.g. ?target=memory/2026-11-04.md%23L3-L5.",
      );
    }
    return c.json(await deps.shown(await workspace.explain(target, deepOptions(params))));
  });

  app.post("/lucid/v1/sleep/rollback", async (c) => {
    const body = await readBody(c, deps);
    const workspace = workspaceFor(deps, c.get("caller"));
    const runId = stringField(body, "runId");
    const force = booleanField(body, "force") ?? false;
    return c.json(
      await withForceHint(workspace.rollback({ ...(runId === undefined ? {} : { runId }), force })),
    );
  });

  app.post("/lucid/v1/sleep/preview", async (c) => {
    const body = await readBody(c, deps);
    const workspace = workspaceFor(deps, c.get("caller"));
    const now = deepOptions(body).now;
    return c.json(await deps.shown(await workspace.preview(now === undefined ? {} : { now })));
  });

  app.get("/lucid/v1/sleep/diary", async (c) => {
    const workspace = workspaceFor(deps, c.get("caller"));
    return c.json(await deps.shown(await workspace.diary()));
  });
}
