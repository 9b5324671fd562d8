/**
 * `GET /v1/events/` and `GET /v1/event/{id}/`: the server's events (every add, and the background
 * jobs of `edge/events.ts`), only those of the caller's scope; another scope's event is 404. An add
 * event keeps its memories' ids, not their texts: the texts shown are read from the store now
 * (masked, as every reply is), and a memory deleted since shows `memory: null`.
 *
 * @module
 */

import type { Hono } from "hono";
import { formatScope, type Scope, scopeFromOptions, withinScope } from "../../core/scope.js";
import type { LucidEvent } from "../../edge/events.js";
import { LucidError } from "../../errors.js";
import type { MemoryItem } from "../../memory/types.js";
import { pageOf, queryOf } from "../body-fields.js";
import { addedIds, eventOut, pageOut } from "../mem0-shapes.js";
import type { RestDeps, RestEnv } from "../rest-env.js";

export function eventRoutes(app: Hono<RestEnv>, deps: RestDeps): void {
  app.get("/v1/events", async (c) => {
    const caller = c.get("caller");
    const bound = scopeFromOptions(caller.bound ?? {});
    const events = deps.events.list().filter((event) => withinScope(event.scope, bound));
    const { page, pageSize } = pageOf(queryOf(c.req.url));
    const shown = events.slice((page - 1) * pageSize, page * pageSize);
    const memories = await memoriesOf(deps, shown, bound);
    const results = shown.map((event) => eventOut(event, memories));
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
    return c.json(await deps.shown(eventOut(event, await memoriesOf(deps, [event], bound))));
  });
}

/** The memories the add events name, as stored now, each only if the caller may see it. */
async function memoriesOf(
  deps: RestDeps,
  events: readonly LucidEvent[],
  bound: Scope,
): Promise<Map<string, MemoryItem>> {
  const ids = [...new Set(events.flatMap(addedIds))];
  const items = await Promise.all(ids.map((id) => deps.memory.get(id)));
  return new Map(
    items.flatMap((item) => (item !== null && withinScope(item, bound) ? [[item.id, item] as const] : [])),
  );
}
