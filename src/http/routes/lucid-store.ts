/**
 * Lucid's routes over a scope's memories as a whole: what the server is (`info`), a credential
 * scan, and export / import in Lucid's NDJSON (the CLI's `lucid export` / `lucid import`). An
 * import is checked whole before anything is written: a record naming a scope the key may not act
 * in, or a line that is not JSON, refuses the request.
 *
 * @module
 */

import type { Hono } from "hono";
import { scopeFromOptions, withinScope } from "../../core/scope.js";
import { packageVersion } from "../../edge/package-version.js";
import { LucidError } from "../../errors.js";
import { stringField } from "../body-fields.js";
import { readBody, readTextRequest } from "../read-body.js";
import { namedScope, readScope, requestScope } from "../request-scope.js";
import type { Caller, RestDeps, RestEnv } from "../rest-env.js";
import { usableWorkspace } from "../workspace-access.js";

/** The records of an import body: a JSON array, `{results: […]}` (Mem0's export), or NDJSON lines. */
function importRecords(text: string): Record<string, unknown>[] {
  const trimmed = text.replace(/^\uFEFF/u, "").trim();
  if (trimmed === "") {
    throw new LucidError(
      "INVALID_ARGUMENT",
      "The import body is empty: send the NDJSON of `lucid export` (one memory per line) or a JSON array.",
    );
  }
  let records: unknown[];
  if (trimmed.startsWith("[") || (trimmed.startsWith("{") && !trimmed.includes("\n"))) {
    const document = parseJson(trimmed, 1);
    records = Array.isArray(document)
      ? document
      : Array.isArray((document as { results?: unknown }).results)
        ? (document as { results: unknown[] }).results
        : [document];
  } else {
    records = trimmed
      .split("\n")
      .map((line, index) => ({ line: line.trim(), number: index + 1 }))
      .filter(({ line }) => line !== "")
      .map(({ line, number }) => parseJson(line, number));
  }
  return records.map((record, index) => {
    if (typeof record !== "object" || record === null || Array.isArray(record)) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `Import record ${index + 1} is not an object: each memory is {"text": "…", …} (the form \`lucid export\` writes).`,
        { details: { record: index + 1 } },
      );
    }
    return record as Record<string, unknown>;
  });
}

function parseJson(text: string, line: number): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `Import line ${line} is not JSON (${(error as Error).message}); nothing was imported.`,
      { details: { line } },
    );
  }
}

/**
 * Each record in the scope it may be written to: a record naming no scope takes the request's; a
 * record naming one keeps it (inside the key's, where naming another user is SCOPE_NOT_ALLOWED).
 * The request needs a scope only when some record names none, as `lucid import` does.
 */
function scopedRecords(
  deps: RestDeps,
  caller: Caller,
  records: readonly Record<string, unknown>[],
  requested: Readonly<Record<string, unknown>>,
): Record<string, unknown>[] {
  let fallback: Readonly<Record<string, unknown>> | undefined;
  return records.map((record) => {
    const named = namedScope(record);
    if (Object.keys(named).length === 0) {
      fallback ??= requestScope(deps, caller, namedScope(requested)).scope;
      return { ...record, ...fallback };
    }
    // Without a key, the record's scope as it names it; with one, checked inside the key's.
    const scope = caller.bound === undefined ? named : requestScope(deps, caller, named).scope;
    const { user_id: _u, agent_id: _a, app_id: _p, run_id: _r, ...rest } = record;
    return { ...rest, ...scope };
  });
}

/**
 * With a key, a record may carry only the id of a memory inside the key's scope, or a new one:
 * `replace` would move another user's memory into this one's, `skip` would answer for it, and an id
 * that once held a memory (deleted since) carries that memory's history — which may be another
 * user's, and which a dream's undo would restore over the import. Without a key (this machine's
 * operator, who may act in every scope) ids are taken as given, so a backup restores exactly.
 */
async function checkIdsInScope(
  deps: RestDeps,
  caller: Caller,
  records: readonly Record<string, unknown>[],
): Promise<void> {
  if (caller.bound === undefined) return;
  const bound = scopeFromOptions(caller.bound);
  for (const [index, record] of records.entries()) {
    if (typeof record.id !== "string") continue;
    const existing = await deps.memory.get(record.id);
    if (existing !== null && !withinScope(existing, bound)) {
      throw new LucidError(
        "SCOPE_NOT_ALLOWED",
        `Import record ${index + 1} has the id of a memory outside your key's scope; leave its id out to import it as a new memory.`,
        { details: { record: index + 1 } },
      );
    }
    if (existing === null && (await deps.memory.history(record.id)).length > 0) {
      throw new LucidError(
        "SCOPE_NOT_ALLOWED",
        `Import record ${index + 1} has the id of a deleted memory, whose history a key may not take over; leave its id out to import it as a new memory.`,
        { details: { record: index + 1 } },
      );
    }
  }
}

export function storeRoutes(app: Hono<RestEnv>, deps: RestDeps): void {
  app.get("/lucid/v1/info", async (c) => {
    const caller = c.get("caller");
    const context = await deps.memory.ready();
    // A key that may not use the workspace is not told where it is.
    const workspace = usableWorkspace(deps, caller);
    return c.json({
      version: packageVersion(),
      keysRequired: caller.keyId !== undefined,
      bound: caller.bound === undefined ? null : scopeFromOptions(caller.bound),
      defaults: caller.bound === undefined ? scopeFromOptions(deps.defaults) : {},
      workspace: workspace?.dir ?? null,
      workspaceScope: workspace?.scope ?? null,
      llm: context.llm !== undefined,
    });
  });

  app.post("/lucid/v1/scan", async (c) => {
    const body = await readBody(c, deps);
    const { filters } = readScope(deps, c.get("caller"), { named: namedScope(body) });
    return c.json(await deps.shown(await deps.memory.scan({ filters })));
  });

  app.get("/lucid/v1/export", async (c) => {
    const { filters } = readScope(deps, c.get("caller"), { named: namedScope(c.req.query()) });
    // Whole before the first byte is sent: a failure midway is an error answer, never a backup cut
    // short that looks complete. Exported as stored: a backup, the bytes `lucid export` writes.
    const lines: string[] = [];
    for await (const record of deps.memory.exportMemories({ filters })) lines.push(JSON.stringify(record));
    return c.body(lines.length === 0 ? "" : `${lines.join("\n")}\n`, 200, {
      "Content-Type": "application/x-ndjson; charset=utf-8",
      "Content-Disposition": 'attachment; filename="lucid-export.ndjson"',
    });
  });

  app.post("/lucid/v1/import", async (c) => {
    const params = c.req.query();
    const onConflict = stringField(params, "on_conflict") ?? "skip";
    if (onConflict !== "skip" && onConflict !== "replace") {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `on_conflict must be "skip" or "replace", got ${JSON.stringify(onConflict)}.`,
      );
    }
    const caller = c.get("caller");
    const records = scopedRecords(deps, caller, importRecords(await readTextRequest(c, deps)), params);
    await checkIdsInScope(deps, caller, records);
    // Checked whole: one bad record refuses the request, and nothing is written.
    const result = await deps.memory.importMemories(records, { onConflict, strict: true });
    return c.json(result);
  });
}
