/**
 * Listing: `POST /v3/memories/` (`{count, next, previous, results}`), the v2 `POST /v2/memories/`
 * (a bare array), and `DELETE /v1/memories/?user_id=…`, which deletes a scope's memories and
 * refuses a bare call (MemoryClient's `deleteAll()` without options would wipe everything).
 *
 * @module
 */

import type { Context, Hono } from "hono";
import { hasScope } from "../../core/scope.js";
import { LucidError } from "../../errors.js";
import type { Filters } from "../../filters/filter.js";
import type { GetAllResult } from "../../memory/types.js";
import { booleanField, pageOf, queryOf, stringField } from "../body-fields.js";
import { sideFilters } from "../mem0-filters.js";
import { memoryOut, pageOut } from "../mem0-shapes.js";
import { readBody } from "../read-body.js";
import { namedScope, readScope, requestScope } from "../request-scope.js";
import type { RestDeps, RestEnv } from "../rest-env.js";

/** A date the request gives, refused when it is not one (it would silently match nothing). */
function dateField(body: Record<string, unknown>, name: string): string | undefined {
  const value = stringField(body, name);
  if (value !== undefined && Number.isNaN(Date.parse(value))) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `${name} must be a date, e.g. "2026-03-01" or "2026-03-01T09:00:00Z".`,
    );
  }
  return value;
}

/** `start_date` / `end_date` (the platform's list options) as `created_at` bounds. */
function dateFilters(body: Record<string, unknown>): Filters | undefined {
  const start = dateField(body, "start_date");
  const end = dateField(body, "end_date");
  if (start === undefined && end === undefined) return undefined;
  return {
    created_at: {
      ...(start === undefined ? {} : { gte: start }),
      ...(end === undefined ? {} : { lte: end }),
    },
  };
}

async function list(c: Context<RestEnv>, deps: RestDeps): Promise<GetAllResult> {
  const body = await readBody(c, deps);
  const side = [sideFilters(body), dateFilters(body)].filter((part) => part !== undefined);
  const { filters } = readScope(deps, c.get("caller"), {
    filters: body.filters,
    named: namedScope(body),
    ...(side.length === 0 ? {} : { extra: side.length === 1 ? side[0] : { AND: side } }),
  });
  const showExpired = booleanField(body, "show_expired");
  return deps.memory.getAll({
    filters,
    ...pageOf(queryOf(c.req.url)),
    ...(showExpired === undefined ? {} : { showExpired }),
  });
}

export function listRoutes(app: Hono<RestEnv>, deps: RestDeps): void {
  app.post("/v3/memories", async (c) => {
    const page = await list(c, deps);
    return c.json(await deps.shown(pageOut(c.req.url, page, page.results.map(memoryOut))));
  });
  app.post("/v2/memories", async (c) =>
    c.json(await deps.shown((await list(c, deps)).results.map(memoryOut))),
  );
  app.delete("/v1/memories", async (c) => {
    const named = namedScope(queryOf(c.req.url));
    if (!hasScope(named)) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        'Refusing to delete every memory: name the scope to delete, e.g. DELETE /v1/memories/?user_id=alice (MemoryClient: deleteAll({ userId: "alice" })).',
      );
    }
    const scope = requestScope({ ...deps, defaults: {} }, c.get("caller"), named);
    const done = await deps.memory.deleteAll({ filters: scope.filters });
    return c.json({ message: done.message, deleted: done.deleted });
  });
}
