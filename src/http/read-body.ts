/**
 * A request's JSON body, read with the edge's size limit (`edge/body.ts`): over the limit is 413,
 * not JSON or not an object is `INVALID_ARGUMENT`, and no body at all is `{}`.
 *
 * @module
 */

import type { Context } from "hono";
import { readJsonBody, readTextBody } from "../edge/body.js";
import { LucidError } from "../errors.js";
import { HttpRefusal } from "./refusal.js";
import type { RestDeps, RestEnv } from "./rest-env.js";

export async function readBody(c: Context<RestEnv>, deps: RestDeps): Promise<Record<string, unknown>> {
  const length = c.req.header("content-length");
  if (length !== undefined && Number(length) > deps.maxBodyBytes) throw tooLarge(deps.maxBodyBytes);
  if (length === "0" || (length === undefined && c.req.header("transfer-encoding") === undefined)) return {};
  const read = await readJsonBody(c.env.incoming, deps.maxBodyBytes);
  if (!read.ok) {
    if (read.reason === "too_large") throw tooLarge(deps.maxBodyBytes);
    throw new LucidError("INVALID_ARGUMENT", `${read.message} Send a JSON object.`);
  }
  const value = read.value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new LucidError("INVALID_ARGUMENT", 'The request body must be a JSON object, e.g. {"query": "…"}.');
  }
  return value as Record<string, unknown>;
}

function tooLarge(limit: number): HttpRefusal {
  return new HttpRefusal(
    "BODY_TOO_LARGE",
    `Request body over ${limit} bytes: send fewer memories per request (or start lucid serve with a larger --max-body).`,
  );
}

/** A request's body as text (an NDJSON import), with the same size limit. */
export async function readTextRequest(c: Context<RestEnv>, deps: RestDeps): Promise<string> {
  const length = c.req.header("content-length");
  if (length !== undefined && Number(length) > deps.maxBodyBytes) throw tooLarge(deps.maxBodyBytes);
  const text = await readTextBody(c.env.incoming, deps.maxBodyBytes);
  if (text === null) throw tooLarge(deps.maxBodyBytes);
  return text;
}
