/**
 * `GET /v1/events/` and `GET /v1/event/{id}/`: the server's events (every add, and the background
 * jobs of `edge/events.ts`), only those of the caller's scope; another scope's event is 404.
 *
 * @module
 */

import type { Hono } from "hono";
import { formatScope, scopeFromOptions, withinScope } from "../../core/scope.js";
import { LucidError } from "../../errors.js";
import { pageOf, queryOf } from "../body-fields.js";
import { eventOut, pageOut } from "../mem0-shapes.js";
import type { RestDeps, RestEnv } from "../rest-env.js";

export function eventRoutes(app: Hono<RestEnv>, deps: RestDeps): void {
  app.get("/v1/events", async (c) => {
    const caller = c.get("caller");
    const bound = scopeFromOptions(caller.bound ?? {});
    const events = deps.events.list().filter((event) => withinScope(event.scope, bound));
    const { page, pageSize } = pageOf(queryOf(c.req.url));
    const results = events.slice((page - 1) * pageSize, page * pageSize).map(eventOut);
    return c.json(await deps.shown(pageOut(c.req.url, { page, pageSize, total: events.length }, results)));
  });

  app.get("/v1/event/:id", async (c) => {
    const id = c.req.param("id");
    const bound = scopeFromOptions(c.get("caller").bound ?? {});
    const event = deps.events.get(id);
    if (event === undefined || !withinScope(event.scope, bound)) {
      const where = formatScope(bound);
      throw new LucidError(
        "RUN_NOT_FOUND",
        `No event has the id ${JSON.stringify(id)}${where === "" ? "" : ` in scope ${where}`}. List them with GET /v1/events/.`,
        { details: { id } },
      );
    }
    return c.json(await deps.shown(eventOut(event)));
  });
}
