/**
 * The OpenAPI 3.1 document of `lucid serve`, served at `/openapi.json` without a key: Mem0's
 * platform routes as MemoryClient calls them (with their trailing slash; every route also answers
 * without it) and Lucid's own under `/lucid/v1/`. A test checks that every route of the app is
 * described here, and that nothing described is missing from the app.
 *
 * @module
 */

import type { Hono } from "hono";
import { packageVersion } from "../edge/package-version.js";
import type { RestEnv } from "./rest-env.js";

type Json = Record<string, unknown>;

const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const SCOPE_PARAMS = ["user_id", "agent_id", "app_id", "run_id"].map((name) => ({
  name,
  in: "query",
  required: false,
  schema: { type: "string" },
  description: `Scope: the ${name.replace("_id", "")} whose memories to act on (a key's scope fixes it).`,
}));
const pathParam = (name: string, description: string): Json => ({
  name,
  in: "path",
  required: true,
  schema: { type: "string" },
  description,
});

/** The answers every route may give besides its own. */
const ERRORS: Json = {
  "400": { $ref: "#/components/responses/Invalid" },
  "401": { $ref: "#/components/responses/Unauthorized" },
  "403": { $ref: "#/components/responses/Forbidden" },
  "429": { $ref: "#/components/responses/RateLimited" },
};

function operation(
  summary: string,
  options: {
    tag: string;
    body?: Json;
    params?: Json[];
    ok: Json | string;
    okType?: string;
    extra?: Json;
    description?: string;
  },
): Json {
  const okContent =
    typeof options.ok === "string"
      ? { description: options.ok }
      : {
          description: "Success",
          content: { [options.okType ?? "application/json"]: { schema: options.ok } },
        };
  return {
    tags: [options.tag],
    summary,
    ...(options.description === undefined ? {} : { description: options.description }),
    ...(options.params === undefined ? {} : { parameters: options.params }),
    ...(options.body === undefined
      ? {}
      : { requestBody: { required: true, content: { "application/json": { schema: options.body } } } }),
    responses: { "200": okContent, ...ERRORS, ...(options.extra ?? {}) },
  };
}

const object = (properties: Json, required: string[] = []): Json => ({
  type: "object",
  properties,
  ...(required.length > 0 ? { required } : {}),
});
const str = (description?: string): Json => ({
  type: "string",
  ...(description === undefined ? {} : { description }),
});
const scopeBody: Json = {
  user_id: str(),
  agent_id: str(),
  app_id: str(),
  run_id: str(),
};
const filtersBody: Json = {
  ...scopeBody,
  filters: {
    type: "object",
    description: "Mem0's platform filters (AND/OR/NOT, operators), inside the scope.",
  },
};
const notFound: Json = { "404": { $ref: "#/components/responses/NotFound" } };
const conflict: Json = { "409": { $ref: "#/components/responses/Conflict" } };

const MEM0 = "Mem0 platform";
const DREAM = "Dream";
const SLEEP = "Sleep";
const STORE = "Lucid";

const PATHS: Json = {
  "/v1/ping/": {
    get: operation("Check the key; returns the org and project ids MemoryClient keeps", {
      tag: MEM0,
      ok: object({ status: str(), org_id: str(), project_id: str() }),
    }),
  },
  "/api/v1/orgs/organizations/{org}/projects/{project}/": {
    parameters: [pathParam("org", "The org id of /v1/ping/."), pathParam("project", "The project id.")],
    get: operation("The project's settings (custom instructions, categories)", {
      tag: MEM0,
      ok: { type: "object" },
      extra: notFound,
    }),
    patch: operation("Change the project's settings", {
      tag: MEM0,
      body: object({ custom_instructions: str(), custom_categories: { type: "array" } }),
      ok: object({ message: str() }),
      extra: notFound,
    }),
  },
  "/v3/memories/add/": {
    post: operation("Add memories from messages (infer: false stores them as given)", {
      tag: MEM0,
      body: object(
        {
          ...scopeBody,
          messages: { type: "array", items: object({ role: str(), content: str(), name: str() }) },
          infer: { type: "boolean" },
          metadata: { type: "object" },
          async_mode: { type: "boolean" },
        },
        ["messages"],
      ),
      ok: object({ status: str(), event_id: str(), message: str(), results: { type: "array" } }),
    }),
  },
  "/v1/memories/": {
    post: operation("Add memories (v1: a bare array of events)", {
      tag: MEM0,
      body: object({ ...scopeBody, messages: { type: "array" } }, ["messages"]),
      ok: { type: "array", items: { type: "object" } },
    }),
    delete: operation("Delete every memory of a scope (a bare call without a scope is refused)", {
      tag: MEM0,
      params: SCOPE_PARAMS,
      ok: object({ message: str() }),
    }),
  },
  "/v3/memories/search/": {
    post: operation("Search memories; `explain: true` adds each result's score_breakdown", {
      tag: MEM0,
      body: object(
        {
          ...filtersBody,
          query: str(),
          top_k: { type: "integer", default: 10 },
          threshold: { type: "number", default: 0.1 },
          explain: { type: "boolean", description: "Lucid: include score_breakdown (the fused signals)." },
        },
        ["query"],
      ),
      ok: object({ results: { type: "array", items: ref("Memory") } }),
    }),
  },
  "/v2/memories/search/": {
    post: operation("Search memories (v2: a bare array)", {
      tag: MEM0,
      body: object({ ...filtersBody, query: str(), top_k: { type: "integer" } }, ["query"]),
      ok: { type: "array", items: ref("Memory") },
    }),
  },
  "/v3/memories/": {
    post: operation("List a scope's memories, a page at a time", {
      tag: MEM0,
      body: object({ ...filtersBody, page: { type: "integer" }, page_size: { type: "integer" } }),
      ok: object({
        count: { type: "integer" },
        next: { type: ["string", "null"] },
        previous: { type: ["string", "null"] },
        results: { type: "array", items: ref("Memory") },
      }),
    }),
  },
  "/v2/memories/": {
    post: operation("List memories (v2: a bare array)", {
      tag: MEM0,
      body: object(filtersBody),
      ok: { type: "array", items: ref("Memory") },
    }),
  },
  "/v1/memories/{id}/": {
    parameters: [pathParam("id", "The memory's id.")],
    get: operation("One memory", { tag: MEM0, ok: ref("Memory"), extra: notFound }),
    put: operation("Change a memory's text, metadata (pin: {pinned: true}) or expiration date", {
      tag: MEM0,
      body: object({
        text: str(),
        metadata: { type: "object" },
        expiration_date: { type: ["string", "null"] },
      }),
      ok: ref("Memory"),
      extra: notFound,
    }),
    delete: operation("Delete a memory", { tag: MEM0, ok: object({ message: str() }), extra: notFound }),
  },
  "/v1/memories/{id}/history/": {
    parameters: [pathParam("id", "The memory's id.")],
    get: operation("A memory's history: every change, oldest first", {
      tag: MEM0,
      ok: {
        type: "array",
        items: object({ id: str(), memory_id: str(), old_memory: str(), new_memory: str(), event: str() }),
      },
      extra: notFound,
    }),
  },
  "/v1/batch/": {
    put: operation("Update up to 1000 memories; every id is checked before any changes", {
      tag: MEM0,
      body: object({ memories: { type: "array", items: object({ memory_id: str(), text: str() }) } }, [
        "memories",
      ]),
      ok: object({ message: str() }),
      extra: notFound,
    }),
    delete: operation("Delete up to 1000 memories; every id is checked before any changes", {
      tag: MEM0,
      body: object({ memory_ids: { type: "array", items: str() } }, ["memory_ids"]),
      ok: object({ message: str() }),
      extra: notFound,
    }),
  },
  "/v1/entities/": {
    get: operation("The users, agents, apps and runs the caller's memories name, with counts", {
      tag: MEM0,
      ok: object({ results: { type: "array", items: object({ id: str(), name: str(), type: str() }) } }),
    }),
  },
  "/v1/entities/{type}/{id}/": {
    parameters: [pathParam("type", "user, agent, app or run."), pathParam("id", "The entity's id.")],
    delete: operation("Delete an entity's memories (deprecated v1 form)", {
      tag: MEM0,
      ok: object({ message: str() }),
    }),
  },
  "/v2/entities/{type}/{id}/": {
    parameters: [pathParam("type", "user, agent, app or run."), pathParam("id", "The entity's id.")],
    delete: operation("Delete an entity's memories", { tag: MEM0, ok: object({ message: str() }) }),
  },
  "/v1/events/": {
    get: operation("Recent add and dream events, a page at a time", {
      tag: MEM0,
      ok: object({
        count: { type: "integer" },
        next: { type: ["string", "null"] },
        results: { type: "array" },
      }),
    }),
  },
  "/v1/event/{id}/": {
    parameters: [pathParam("id", "The event's id.")],
    get: operation("One event and its status", { tag: MEM0, ok: { type: "object" }, extra: notFound }),
  },

  "/v1/feedback/": {
    post: operation("Record a person's feedback on a memory (kept as metadata.feedback, feedback_reason)", {
      tag: MEM0,
      body: object(
        {
          memory_id: str(),
          feedback: { type: ["string", "null"], enum: ["POSITIVE", "NEGATIVE", "VERY_NEGATIVE", null] },
          feedback_reason: { type: ["string", "null"] },
        },
        ["memory_id"],
      ),
      ok: object({ message: str(), memory_id: str(), feedback: { type: ["string", "null"] } }),
      extra: notFound,
    }),
  },
  "/lucid/v1/info": {
    get: operation("What this server is: version, the key's scope, the workspace, whether an LLM is set", {
      tag: STORE,
      ok: object({
        version: str(),
        keysRequired: { type: "boolean" },
        bound: { type: ["object", "null"] },
        defaults: { type: "object" },
        workspace: { type: ["string", "null"] },
        workspaceScope: { type: ["object", "null"] },
        llm: { type: "boolean" },
      }),
    }),
  },
  "/lucid/v1/scan": {
    post: operation("Scan a scope's memories for credentials (previews only, never the values)", {
      tag: STORE,
      body: object(scopeBody),
      ok: object({ scanned: { type: "integer" }, findings: { type: "array", items: { type: "object" } } }),
    }),
  },
  "/lucid/v1/export": {
    get: operation("Export a scope's memories as NDJSON, as `lucid export` writes it", {
      tag: STORE,
      params: SCOPE_PARAMS,
      ok: { type: "string" },
      okType: "application/x-ndjson",
    }),
  },
  "/lucid/v1/import": {
    post: {
      ...operation(
        "Import NDJSON (or a JSON array, or Mem0's {results}); records without a scope get the request's",
        {
          tag: STORE,
          params: [
            ...SCOPE_PARAMS,
            {
              name: "on_conflict",
              in: "query",
              schema: { type: "string", enum: ["skip", "replace"], default: "skip" },
            },
          ],
          ok: { type: "object", description: "imported, replaced, skipped, failed counts and items" },
        },
      ),
      requestBody: { required: true, content: { "application/x-ndjson": { schema: { type: "string" } } } },
    },
  },
  "/lucid/v1/dream/plan": {
    post: operation("Plan a dream of a scope: what consolidation would change, kept for an hour to apply", {
      tag: DREAM,
      body: object({
        ...scopeBody,
        llm: { type: "boolean", description: "Let the configured LLM judge the review tier." },
      }),
      ok: object({
        planId: str(),
        expiresAt: str(),
        plan: ref("DreamPlan"),
        memories: {
          type: "object",
          additionalProperties: ref("Memory"),
          description: "Every memory the plan names.",
        },
        report: str("The plan as `lucid dream --dry-run` prints it."),
      }),
    }),
  },
  "/lucid/v1/dream/apply": {
    post: operation(
      "Apply a kept plan with a person's decisions, in one transaction; returns the run to undo",
      {
        tag: DREAM,
        body: object(
          {
            planId: str(),
            conflicts: {
              type: "object",
              additionalProperties: { type: "string", enum: ["A", "B", "skip"] },
              description: 'By "<ids[0]>:<ids[1]>": A keeps the first, B the second, skip (default) both.',
            },
            accept: {
              type: "array",
              items: { type: "integer" },
              description: "Indices of plan.review to accept.",
            },
            decline: {
              type: "array",
              items: { type: "integer" },
              description:
                "Indices of plan.actions a person declined: left as they are, reported as skipped.",
            },
            include: {
              type: "array",
              items: { type: "string", enum: ["delete", "merge", "conflict", "rewrite"] },
            },
          },
          ["planId"],
        ),
        ok: object({
          applied: { type: "boolean" },
          runId: { type: ["string", "null"] },
          actions: { type: "array" },
          counts: { type: "object" },
        }),
        extra: { ...notFound, ...conflict },
      },
    ),
  },
  "/lucid/v1/dream/runs": {
    get: operation("Dream runs within a scope, newest first", {
      tag: DREAM,
      params: [...SCOPE_PARAMS, { name: "limit", in: "query", schema: { type: "integer", default: 20 } }],
      ok: object({ runs: { type: "array", items: ref("RunSummary") } }),
    }),
  },
  "/lucid/v1/dream/runs/{id}": {
    parameters: [pathParam("id", "The run's id.")],
    get: operation(
      "One run: its plan, decisions, outcome, the memories it touched, and those its plan names as they are now",
      {
        tag: DREAM,
        ok: object({
          run: { type: "object" },
          memories: {
            type: "array",
            description: "Each memory the run touched: its preimage and what it left.",
          },
          named: {
            type: "object",
            description: "By id, every memory the run's plan names that is still stored.",
          },
        }),
        extra: notFound,
      },
    ),
  },
  "/lucid/v1/dream/runs/{id}/undo": {
    parameters: [pathParam("id", "The run's id.")],
    post: operation(
      "Undo a run: every memory it touched back as it was (409 when one changed since, unless force)",
      {
        tag: DREAM,
        body: object({ force: { type: "boolean" } }),
        ok: object({ runId: str(), restored: { type: "integer" }, removed: { type: "integer" } }),
        extra: { ...notFound, ...conflict },
      },
    ),
  },
  "/lucid/v1/dream/gate": {
    get: operation("Whether an automatic dream of the scope is due, and what blocks it", {
      tag: DREAM,
      params: SCOPE_PARAMS,
      ok: { type: "object" },
    }),
  },
  "/lucid/v1/sleep/status": {
    get: operation("The workspace's sleep status: MEMORY.md budget, last run, what would promote, blockers", {
      tag: SLEEP,
      ok: { type: "object" },
      extra: notFound,
    }),
  },
  "/lucid/v1/sleep/promote": {
    post: operation(
      "What the deep phase would promote, with MEMORY.md before and after; apply: true promotes",
      {
        tag: SLEEP,
        body: object({
          apply: { type: "boolean", default: false },
          limit: { type: "integer" },
          minScore: { type: "number" },
          minRecallCount: { type: "integer" },
          minUniqueQueries: { type: "integer" },
          includePromoted: { type: "boolean" },
          now: str(),
        }),
        ok: object({
          applied: { type: "boolean" },
          runId: { type: ["string", "null"] },
          candidates: { type: "array" },
          promoted: { type: "array" },
          refused: { type: "array" },
          memoryFileDiff: object({ before: str(), after: str() }),
        }),
        extra: { ...notFound, ...conflict },
      },
    ),
  },
  "/lucid/v1/sleep/explain": {
    get: operation("Why a candidate ranks where it does: its signals and the gates it passes or fails", {
      tag: SLEEP,
      params: [{ name: "target", in: "query", required: true, schema: { type: "string" } }],
      ok: { type: "object" },
      extra: notFound,
    }),
  },
  "/lucid/v1/sleep/rollback": {
    post: operation(
      "Roll back a promotion run (default the latest): MEMORY.md byte for byte, its memories removed",
      {
        tag: SLEEP,
        body: object({ runId: str(), force: { type: "boolean" } }),
        ok: { type: "object" },
        extra: { ...notFound, ...conflict },
      },
    ),
  },
  "/lucid/v1/sleep/preview": {
    post: operation("What a sweep (light, REM, deep) would stage, reflect and promote, writing nothing", {
      tag: SLEEP,
      body: object({ now: str() }),
      ok: { type: "object" },
      extra: notFound,
    }),
  },
  "/lucid/v1/sleep/diary": {
    get: operation("The Dream Diary (DREAMS.md)", {
      tag: SLEEP,
      ok: object({ path: str(), exists: { type: "boolean" }, text: str() }),
      extra: notFound,
    }),
  },
};

const response = (description: string): Json => ({
  description,
  content: { "application/json": { schema: ref("Error") } },
});

/** The document (built once per call: it is small, and the version is read from package.json). */
export function openApiDocument(): Json {
  return {
    openapi: "3.1.0",
    info: {
      title: "Lucid REST API",
      version: packageVersion(),
      description:
        "Mem0's platform API (MemoryClient's `host`) and Lucid's own routes for dream, sleep, scan, export and import. " +
        "Every route also answers without its trailing slash. With API keys, send `Authorization: Token <key>`; " +
        "each key acts only inside its scope.",
    },
    servers: [{ url: "/" }],
    security: [{ token: [] }],
    tags: [{ name: MEM0 }, { name: STORE }, { name: DREAM }, { name: SLEEP }],
    paths: PATHS,
    components: {
      securitySchemes: {
        token: {
          type: "apiKey",
          in: "header",
          name: "Authorization",
          description: "`Token <key>` (or `Bearer <key>`), from `lucid keys create --user <id>`.",
        },
      },
      responses: {
        Invalid: response("The request is malformed (the detail says what to send)"),
        Unauthorized: response("No key, or a key that is not valid"),
        Forbidden: response(
          "The key's scope does not allow it, or a request from off this machine without keys",
        ),
        NotFound: response("Not there, or outside the key's scope"),
        Conflict: response("Changed since, or another process holds the scope"),
        RateLimited: response("Too many requests (Retry-After says when to try again)"),
      },
      schemas: {
        Error: object({ detail: str(), code: str(), details: { type: "object" } }, ["detail", "code"]),
        Memory: object(
          {
            id: str(),
            memory: str("The text."),
            hash: str(),
            user_id: { type: ["string", "null"] },
            agent_id: { type: ["string", "null"] },
            app_id: { type: ["string", "null"] },
            run_id: { type: ["string", "null"] },
            metadata: { type: "object" },
            categories: { type: "array", items: str() },
            created_at: str(),
            updated_at: str(),
            expiration_date: { type: ["string", "null"] },
            score: { type: "number" },
            score_breakdown: { type: "object" },
          },
          ["id", "memory"],
        ),
        DreamPlan: {
          type: "object",
          description: "Lucid's dream plan, version 1: docs/dream-plan.md describes every field.",
          properties: {
            version: { type: "integer" },
            scope: { type: "object" },
            now: str(),
            reviewed: { type: "integer" },
            actions: { type: "array", items: { type: "object" } },
            review: { type: "array", items: { type: "object" } },
            seen: { type: "object" },
            stats: { type: "object" },
          },
        },
        RunSummary: object({
          id: str(),
          scope: { type: "object" },
          scopeKey: str(),
          mode: str(),
          counts: { type: "object" },
          actions: { type: "integer" },
          startedAt: str(),
          committedAt: str(),
          undoneAt: { type: ["string", "null"] },
        }),
      },
    },
  };
}

export function openApiRoute(app: Hono<RestEnv>): void {
  app.get("/openapi.json", (c) => c.json(openApiDocument()));
}
