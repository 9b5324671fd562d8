/**
 * Adding memories: `POST /v3/memories/add/` (the platform's `{status, event_id, results}`) and the
 * v1 `POST /v1/memories/` (an array), both synchronous. Each add is recorded as a finished event
 * (`GET /v1/event/{id}/`), so clients that poll an add's event find it `SUCCEEDED` at once. The
 * reply has the memories' texts; the event keeps only their ids and what happened to each.
 *
 * @module
 */

import type { Context, Hono } from "hono";
import type { LucidEvent } from "../../edge/events.js";
import { LucidError } from "../../errors.js";
import type { AddOptions, AddResultItem, Message } from "../../memory/types.js";
import { booleanField, objectField, stringField } from "../body-fields.js";
import type { KeptAdd, Wire } from "../mem0-shapes.js";
import { readBody } from "../read-body.js";
import { namedScope, requestScope } from "../request-scope.js";
import type { RestDeps, RestEnv } from "../rest-env.js";

/** What the platform's add pipeline and openclaw-mem0's `deduced_memories` hand over. */
function addInput(body: Record<string, unknown>): string | Message[] {
  const deduced = body.deduced_memories;
  if (Array.isArray(deduced) && deduced.length > 0 && body.infer === false) {
    if (!deduced.every((text) => typeof text === "string")) {
      throw new LucidError("INVALID_ARGUMENT", "deduced_memories must be an array of strings.");
    }
    return deduced.map((content: string) => ({ role: "user", content }));
  }
  const messages = body.messages;
  if (typeof messages === "string") return messages;
  if (
    Array.isArray(messages) &&
    messages.every(
      (message) =>
        typeof message === "object" &&
        message !== null &&
        typeof (message as { role?: unknown }).role === "string" &&
        typeof (message as { content?: unknown }).content === "string",
    )
  ) {
    return messages as Message[];
  }
  throw new LucidError(
    "INVALID_ARGUMENT",
    'messages must be a string or an array of {"role", "content"} with string content, e.g. [{"role": "user", "content": "I like tea"}].',
  );
}

function addItemOut(item: AddResultItem): Wire {
  return {
    id: item.id,
    memory: item.memory,
    data: { memory: item.memory },
    event: item.event,
    metadata: item.metadata,
    ...(item.previous_memory === undefined ? {} : { previous_memory: item.previous_memory }),
  };
}

/**
 * What an add's event keeps: each memory's id and event (ADD, UPDATE, DELETE, NONE) and the count,
 * no text — the events routes read the texts from the store when asked.
 */
function keptAdd(results: readonly AddResultItem[]): KeptAdd {
  return { count: results.length, results: results.map(({ id, event }) => ({ id, event })) };
}

async function add(c: Context<RestEnv>, deps: RestDeps) {
  const body = await readBody(c, deps);
  const scope = requestScope(deps, c.get("caller"), namedScope(body));
  const input = addInput(body);
  const metadata = objectField(body, "metadata");
  const infer = booleanField(body, "infer");
  const expiration = stringField(body, "expiration_date");
  const timestamp = body.timestamp;
  if (
    timestamp !== undefined &&
    timestamp !== null &&
    typeof timestamp !== "number" &&
    typeof timestamp !== "string"
  ) {
    throw new LucidError("INVALID_ARGUMENT", "timestamp must be Unix seconds or an ISO-8601 string.");
  }
  const options: AddOptions = {
    ...scope.options,
    ...(metadata === undefined ? {} : { metadata }),
    ...(infer === true ? { infer } : {}),
    ...(expiration === undefined ? {} : { expirationDate: expiration }),
    ...(timestamp === undefined || timestamp === null ? {} : { timestamp }),
  };
  const { event, result } = await deps.events.track({
    type: "add",
    trigger: "tool",
    scope: scope.scope,
    scopeKey: scope.key,
    job: () => deps.memory.add(input, options),
    summarize: (done) => `add: ${done.results.length} memories for ${scope.label}`,
    keep: (done) => keptAdd(done.results),
  });
  return { event, results: result.results.map(addItemOut), dropped: result.dropped ?? [] };
}

function message(event: LucidEvent, results: readonly Wire[]): string {
  return `${results.length} ${results.length === 1 ? "memory" : "memories"} processed (event ${event.id}).`;
}

export function addRoutes(app: Hono<RestEnv>, deps: RestDeps): void {
  app.post("/v3/memories/add", async (c) => {
    const { event, results, dropped } = await add(c, deps);
    return c.json(
      await deps.shown({
        message: message(event, results),
        status: "SUCCEEDED",
        event_id: event.id,
        results,
        // With infer: the extracted facts left out as possible injections (Lucid's own field).
        ...(dropped.length === 0 ? {} : { dropped }),
      }),
    );
  });
  app.post("/v1/memories", async (c) => {
    const { event, results } = await add(c, deps);
    const done = { message: message(event, results), status: "SUCCEEDED", event_id: event.id };
    return c.json(
      await deps.shown(results.length === 0 ? [done] : results.map((result) => ({ ...result, ...done }))),
    );
  });
}
