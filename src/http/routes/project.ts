/**
 * `GET /v1/ping/` and the project routes. Ping answers with the fixed org and project ids that
 * MemoryClient needs for `getProject` / `updateProject`, and no `user_email` (which would make the
 * client write its telemetry config). The project's settings are kept for the server's life; Lucid's
 * storage does not depend on them.
 *
 * @module
 */

import type { Context, Hono } from "hono";
import { LucidError } from "../../errors.js";
import { readBody } from "../read-body.js";
import type { RestDeps, RestEnv } from "../rest-env.js";

const PROJECT_PATH = "/api/v1/orgs/organizations/:org/projects/:project";

function checkProject(c: Context<RestEnv>, deps: RestDeps): void {
  if (c.req.param("org") === deps.orgId && c.req.param("project") === deps.projectId) return;
  throw new LucidError(
    "INVALID_ARGUMENT",
    `This server has one project: organization ${JSON.stringify(deps.orgId)}, project ${JSON.stringify(deps.projectId)} (as GET /v1/ping/ says).`,
  );
}

function projectOut(deps: RestDeps): Record<string, unknown> {
  return {
    id: deps.projectId,
    name: "Lucid",
    org_id: deps.orgId,
    custom_instructions: null,
    custom_categories: [],
    ...deps.projectSettings,
  };
}

export function projectRoutes(app: Hono<RestEnv>, deps: RestDeps): void {
  app.get("/v1/ping", (c) => c.json({ status: "ok", org_id: deps.orgId, project_id: deps.projectId }));

  app.get(PROJECT_PATH, (c) => {
    checkProject(c, deps);
    const project = projectOut(deps);
    const fields = c.req.queries("fields");
    if (fields === undefined || fields.length === 0) return c.json(project);
    return c.json(
      Object.fromEntries(fields.filter((name) => name in project).map((name) => [name, project[name]])),
    );
  });

  app.patch(PROJECT_PATH, async (c) => {
    checkProject(c, deps);
    const body = await readBody(c, deps);
    for (const name of ["id", "org_id", "name"]) delete body[name];
    Object.assign(deps.projectSettings, body);
    return c.json({ message: "Updated the project settings.", ...projectOut(deps) });
  });
}
