/**
 * `PUT /v1/batch/` (`{memories: [{memory_id, text}]}`) and `DELETE /v1/batch/`
 * (`{memories: [{memory_id}]}`), at most 1000 each. Every id is checked against the caller's scope
 * before anything changes, so one foreign or missing id refuses the whole batch (404), and a
 * repeated id refuses it too (400); the updates are written in one transaction, so a text that
 * cannot be stored changes none.
 *
 * @module
 */

import type { Hono } from "hono";
import { LucidError } from "../../errors.js";
import { readBody } from "../read-body.js";
import { findInScope } from "../request-scope.js";
import type { RestDeps, RestEnv } from "../rest-env.js";

/** The platform's cap on one batch. */
const MAX_BATCH = 1000;

function batchOf(body: Record<string, unknown>, withText: boolean): { id: string; text?: string }[] {
  const memories = body.memories;
  const entry = withText ? '{"memory_id": "…", "text": "…"}' : '{"memory_id": "…"}';
  const shape = `{"memories": [${entry}]}`;
  if (!Array.isArray(memories) || memories.length === 0 || memories.length > MAX_BATCH) {
    throw new LucidError("INVALID_ARGUMENT", `Send 1 to ${MAX_BATCH} memories: ${shape}.`);
  }
  const seen = new Set<string>();
  return memories.map((given, index) => {
    const item = given as { memory_id?: unknown; text?: unknown } | null;
    if (typeof item?.memory_id !== "string" || (withText && typeof item.text !== "string")) {
      throw new LucidError("INVALID_ARGUMENT", `memories[${index}] is not ${entry}.`, {
        details: { index },
      });
    }
    // Checked before anything changes: a repeated id would fail half-way, after the first write.
    if (seen.has(item.memory_id)) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `memories[${index}] repeats the id ${JSON.stringify(item.memory_id)}: give each memory once.`,
        { details: { index } },
      );
    }
    seen.add(item.memory_id);
    return withText ? { id: item.memory_id, text: item.text as string } : { id: item.memory_id };
  });
}

export function batchRoutes(app: Hono<RestEnv>, deps: RestDeps): void {
  app.put("/v1/batch", async (c) => {
    const batch = batchOf(await readBody(c, deps), true);
    for (const { id } of batch) await findInScope(deps, c.get("caller"), id);
    // One transaction: a text that cannot be stored refuses the batch, and nothing changes.
    await deps.memory.batchUpdate(batch.map(({ id, text }) => ({ memoryId: id, text: text as string })));
    return c.json({ message: `Successfully updated ${batch.length} memories` });
  });
  app.delete("/v1/batch", async (c) => {
    const batch = batchOf(await readBody(c, deps), false);
    for (const { id } of batch) await findInScope(deps, c.get("caller"), id);
    for (const { id } of batch) await deps.memory.delete(id);
    return c.json({ message: `Successfully deleted ${batch.length} memories` });
  });
}
