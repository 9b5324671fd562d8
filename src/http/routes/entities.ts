/**
 * Entities: `GET /v1/entities/` lists the users, agents, apps and runs the caller's memories name,
 * with counts; `DELETE /v2/entities/{type}/{id}/` (and the deprecated v1 form) deletes the memories
 * of one, inside the caller's scope (a key for alice cannot delete user bob: 403).
 *
 * @module
 */

import type { Hono } from "hono";
import { SCOPE_KEYS, type ScopeKey, scopeFromOptions } from "../../core/scope.js";
import { LucidError } from "../../errors.js";
import { pageOf, queryOf } from "../body-fields.js";
import { pageOut, type Wire } from "../mem0-shapes.js";
import { requestScope } from "../request-scope.js";
import type { RestDeps, RestEnv } from "../rest-env.js";

const ENTITY_TYPES = ["user", "agent", "app", "run"] as const;
type EntityType = (typeof ENTITY_TYPES)[number];

function keyOf(type: string): ScopeKey {
  const singular = type.endsWith("s") ? type.slice(0, -1) : type;
  if ((ENTITY_TYPES as readonly string[]).includes(singular)) return `${singular as EntityType}_id`;
  throw new LucidError(
    "INVALID_ARGUMENT",
    `Unknown entity type ${JSON.stringify(type)}: use one of ${ENTITY_TYPES.join(", ")}, e.g. DELETE /v2/entities/user/alice/.`,
    { details: { type } },
  );
}

interface Entity {
  name: string;
  type: EntityType;
  total: number;
  first: string;
  last: string;
}

export function entityRoutes(app: Hono<RestEnv>, deps: RestDeps): void {
  app.get("/v1/entities", async (c) => {
    const caller = c.get("caller");
    const bound = caller.bound === undefined ? undefined : scopeFromOptions(caller.bound);
    const found = new Map<string, Entity>();
    // Without a key the caller is this machine's user and sees every entity.
    const read = deps.memory.exportMemories(bound === undefined ? {} : { filters: { ...bound } });
    for await (const record of read) {
      for (const key of SCOPE_KEYS) {
        const name = record[key];
        if (name === undefined) continue;
        const type = key.slice(0, -3) as EntityType;
        const entity = found.get(`${type}:${name}`) ?? {
          name,
          type,
          total: 0,
          first: record.created_at,
          last: record.updated_at,
        };
        entity.total++;
        if (record.created_at < entity.first) entity.first = record.created_at;
        if (record.updated_at > entity.last) entity.last = record.updated_at;
        found.set(`${type}:${name}`, entity);
      }
    }
    const all = [...found.values()].sort(
      (a, b) => ENTITY_TYPES.indexOf(a.type) - ENTITY_TYPES.indexOf(b.type) || a.name.localeCompare(b.name),
    );
    const { page, pageSize } = pageOf(queryOf(c.req.url));
    const results: Wire[] = all.slice((page - 1) * pageSize, page * pageSize).map((entity) => ({
      id: entity.name,
      name: entity.name,
      type: entity.type,
      total_memories: entity.total,
      owner: null,
      created_at: entity.first,
      updated_at: entity.last,
      metadata: {},
    }));
    return c.json({
      ...pageOut(c.req.url, { page, pageSize, total: all.length }, results),
      total_users: all.filter((entity) => entity.type === "user").length,
    });
  });

  for (const version of ["v1", "v2"]) {
    app.delete(`/${version}/entities/:type/:id`, async (c) => {
      const key = keyOf(c.req.param("type"));
      // An entity is all of its memories, not the default scope's share of them.
      const scope = requestScope({ ...deps, defaults: {} }, c.get("caller"), { [key]: c.req.param("id") });
      const done = await deps.memory.deleteAll({ filters: scope.filters });
      return c.json({
        message: `Entity deleted successfully (${done.deleted} memories).`,
        deleted: done.deleted,
      });
    });
  }
}
