/**
 * `GET /v1/ping/` and the project routes. Ping answers with the fixed org and project ids that
 * MemoryClient needs for `getProject` / `updateProject`, and no `user_email` (which would make the
 * client write its telemetry config). The project's settings — only the two Mem0's clients write,
 * `custom_instructions` and `custom_categories`, size-capped — are kept per key for the server's
 * life; Lucid's storage does not depend on them.
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

const MAX_INSTRUCTIONS = 20_000;
const MAX_CATEGORIES = 200;
const MAX_CATEGORIES_JSON = 50_000;

const settingsOf = (c: Context<RestEnv>, deps: RestDeps) =>
  deps.projectSettings.get(c.get("caller").keyId ?? "") ?? {};

function projectOut(c: Context<RestEnv>, deps: RestDeps): Record<string, unknown> {
  return {
    id: deps.projectId,
    name: "Lucid",
    org_id: deps.orgId,
    custom_instructions: null,
    custom_categories: [],
    ...settingsOf(c, deps),
  };
}

/** The settings a PATCH may change, checked; anything else is refused. */
function readSettings(body: Record<string, unknown>): Record<string, unknown> {
  const settings: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    if (["id", "org_id", "name"].includes(name)) continue;
    if (name === "custom_instructions") {
      if (value !== null && (typeof value !== "string" || value.length > MAX_INSTRUCTIONS)) {
        throw new LucidError(
          "INVALID_ARGUMENT",
          `custom_instructions must be text of at most ${MAX_INSTRUCTIONS} characters, or null.`,
        );
      }
    } else if (name === "custom_categories") {
      if (
        !Array.isArray(value) ||
        value.length > MAX_CATEGORIES ||
        JSON.stringify(value).length > MAX_CATEGORIES_JSON
      ) {
        throw new LucidError(
          "INVALID_ARGUMENT",
          `custom_categories must be a list of at most ${MAX_CATEGORIES} categories.`,
        );
      }
    } else {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `The project has no setting ${JSON.stringify(name)}: custom_instructions and custom_categories can be changed.`,
      );
    }
    settings[name] = value;
  }
  return settings;
}

export function projectRoutes(app: Hono<RestEnv>, deps: RestDeps): void {
  app.get("/v1/ping", (c) => c.json({ status: "ok", org_id: deps.orgId, project_id: deps.projectId }));

  app.get(PROJECT_PATH, (c) => {
    checkProject(c, deps);
    const project = projectOut(c, deps);
    const fields = c.req.queries("fields");
    if (fields === undefined || fields.length === 0) return c.json(project);
    return c.json(
      Object.fromEntries(
        fields.filter((name) => Object.hasOwn(project, name)).map((name) => [name, project[name]]),
      ),
    );
  });

  app.patch(PROJECT_PATH, async (c) => {
    checkProject(c, deps);
    const changed = readSettings(await readBody(c, deps));
    deps.projectSettings.set(c.get("caller").keyId ?? "", { ...settingsOf(c, deps), ...changed });
    return c.json({ message: "Updated the project settings.", ...projectOut(c, deps) });
  });
}
