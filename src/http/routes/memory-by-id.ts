/**
 * One memory by id: `GET`, `PUT` and `DELETE /v1/memories/{id}/` and its history. An id outside
 * the caller's scope answers exactly as an id that does not exist (404).
 *
 * @module
 */

import type { Hono } from "hono";
import { scopeFromOptions } from "../../core/scope.js";
import { LucidError } from "../../errors.js";
import type { UpdateFields } from "../../memory/types.js";
import { objectField, stringField } from "../body-fields.js";
import { historyOut, memoryOut } from "../mem0-shapes.js";
import { readBody } from "../read-body.js";
import { findInScope, notFound } from "../request-scope.js";
import type { RestDeps, RestEnv } from "../rest-env.js";

/** The change a `PUT` asks for; at least one of text, metadata, expiration_date. */
function updateFields(body: Record<string, unknown>): UpdateFields {
  const text = stringField(body, "text");
  const metadata = objectField(body, "metadata");
  const hasExpiration = Object.hasOwn(body, "expiration_date");
  const expiration = stringField(body, "expiration_date");
  const fields: UpdateFields = {
    ...(text === undefined ? {} : { text }),
    ...(metadata === undefined ? {} : { metadata }),
    ...(hasExpiration ? { expirationDate: expiration ?? null } : {}),
  };
  if (Object.keys(fields).length > 0) return fields;
  throw new LucidError(
    "INVALID_ARGUMENT",
    body.timestamp === undefined
      ? 'Nothing to update: send text, metadata or expiration_date, e.g. {"text": "Alice drinks green tea"}.'
      : "A memory's timestamp (when it was made) cannot be changed; send text, metadata or expiration_date.",
  );
}

export function memoryByIdRoutes(app: Hono<RestEnv>, deps: RestDeps): void {
  app.get("/v1/memories/:id", async (c) => {
    return c.json(await deps.shown(memoryOut(await findInScope(deps, c.get("caller"), c.req.param("id")))));
  });

  app.put("/v1/memories/:id", async (c) => {
    const id = c.req.param("id");
    const caller = c.get("caller");
    await findInScope(deps, caller, id);
    await deps.memory.update(id, updateFields(await readBody(c, deps)));
    return c.json(await deps.shown(memoryOut(await findInScope(deps, caller, id))));
  });

  app.delete("/v1/memories/:id", async (c) => {
    const id = c.req.param("id");
    await findInScope(deps, c.get("caller"), id);
    const done = await deps.memory.delete(id);
    return c.json({ message: done.message });
  });

  app.get("/v1/memories/:id/history", async (c) => {
    const id = c.req.param("id");
    const caller = c.get("caller");
    // With a key the memory must be there to prove its scope; without one, a deleted memory's
    // history can still be read.
    const item = caller.bound === undefined ? await deps.memory.get(id) : await findInScope(deps, caller, id);
    const entries = await deps.memory.history(id);
    if (item === null && entries.length === 0) throw notFound(id, scopeFromOptions(caller.bound ?? {}));
    return c.json(await deps.shown(entries.map((entry) => historyOut(entry, item))));
  });
}
