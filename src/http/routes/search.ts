/**
 * Searching: `POST /v3/memories/search/` (`{results}`) and the v2 `POST /v2/memories/search/` (a bare
 * array, as openclaw-mem0 reads it). Platform filters become Lucid's, AND-ed under the scope.
 *
 * @module
 */

import type { Context, Hono } from "hono";
import { LucidError } from "../../errors.js";
import { booleanField, numberField, stringField } from "../body-fields.js";
import { sideFilters } from "../mem0-filters.js";
import { memoryOut, type Wire } from "../mem0-shapes.js";
import { readBody } from "../read-body.js";
import { namedScope, readScope } from "../request-scope.js";
import type { RestDeps, RestEnv } from "../rest-env.js";

/** The platform's defaults (Mem0's OpenAPI document). */
const DEFAULT_TOP_K = 10;
const DEFAULT_THRESHOLD = 0.1;

async function search(c: Context<RestEnv>, deps: RestDeps): Promise<Wire[]> {
  const body = await readBody(c, deps);
  const query = stringField(body, "query");
  if (query === undefined || query.trim() === "") {
    throw new LucidError(
      "INVALID_ARGUMENT",
      'query is required: {"query": "what does alice drink?", "filters": {…}}.',
    );
  }
  const { filters } = readScope(deps, c.get("caller"), {
    filters: body.filters,
    named: namedScope(body),
    extra: sideFilters(body),
  });
  const showExpired = booleanField(body, "show_expired");
  const referenceDate = stringField(body, "reference_date");
  // Lucid's: each result's score_breakdown (the signals the fused score is made of).
  const explain = booleanField(body, "explain");
  const found = await deps.memory.search(query, {
    filters,
    topK: numberField(body, "top_k", { min: 1, max: 1000, integer: true }) ?? DEFAULT_TOP_K,
    threshold: numberField(body, "threshold", { min: 0, max: 1 }) ?? DEFAULT_THRESHOLD,
    ...(showExpired === undefined ? {} : { showExpired }),
    ...(referenceDate === undefined ? {} : { referenceDate }),
    ...(explain === undefined ? {} : { explain }),
  });
  return found.results.map(memoryOut);
}

export function searchRoutes(app: Hono<RestEnv>, deps: RestDeps): void {
  app.post("/v3/memories/search", async (c) => c.json(await deps.shown({ results: await search(c, deps) })));
  app.post("/v2/memories/search", async (c) => c.json(await deps.shown(await search(c, deps))));
}
