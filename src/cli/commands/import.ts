import { readFile } from "node:fs/promises";
import { SCOPE_KEY_OF_OPTION, SCOPE_KEYS, type ScopeOptions } from "../../core/scope.js";
import type { ImportRecord } from "../../memory/types.js";
import { choiceFlag, integerFlag } from "../args/flag-values.js";
import { defineCommand } from "../command.js";
import { readText } from "../io.js";
import { type ImportLine, type LineError, parseImportLines } from "../jsonl/parse-import-lines.js";
import { plural } from "../output/format.js";
import { createProgress } from "../output/progress.js";
import { renderTable } from "../output/table.js";

export const importCommand = defineCommand({
  name: "import",
  summary: "Load memories from JSONL (a Lucid or Mem0 export), keeping ids and timestamps",
  args: [{ name: "file", required: true, description: "a .jsonl file, or - for stdin" }],
  flags: {
    "on-conflict": {
      type: "string",
      valueHint: "MODE",
      description: "an id that exists: skip (default) or replace",
    },
    "batch-size": {
      type: "string",
      valueHint: "N",
      description: "memories embedded and committed together (default 64)",
    },
  },
  scoped: true,
  examples: [
    "lucid import backup.jsonl",
    "lucid import mem0-export.jsonl --user alice",
    "lucid export --home ~/.lucid | lucid import - --home /tmp/copy --on-conflict replace",
  ],
  notes: [
    "One memory a line: {id?, text | memory, user_id?, agent_id?, app_id?, run_id?, category?, metadata?, " +
      "created_at? | createdAt?, updated_at? | updatedAt?, expires_at?}. Other keys are ignored.",
    "Scope flags (or the default scope) apply to lines that name no scope. Bad lines are reported by number " +
      "and the good ones still import; the exit code is then 1. Each batch commits whole, so an interrupted " +
      "import can simply be run again: existing ids are skipped.",
  ],
  async run(context) {
    const onConflict = choiceFlag(
      context.flags["on-conflict"],
      "on-conflict",
      ["skip", "replace"] as const,
      "import",
    );
    const batchSize = integerFlag(context.flags["batch-size"], "batch-size", "import");
    const source = context.args[0] as string;
    const text = source === "-" ? await readText(context.io.stdin) : await readFile(source, "utf8");
    const { records, errors } = parseImportLines(text);
    const scope = await context.scope();
    const memory = await context.memory();
    const progress = createProgress(context.io.stderr, { label: "Importing", style: context.errorStyle });
    const result = await memory
      .importMemories(
        records.map((line) => withScope(line.record, scope)),
        {
          ...(onConflict === undefined ? {} : { onConflict }),
          ...(batchSize === undefined ? {} : { batchSize }),
          onProgress: ({ done, total }) => progress.update(done, total),
        },
      )
      .finally(() => progress.done());
    const failures = [...errors, ...sdkFailures(result.items, records)].sort((a, b) => a.line - b.line);
    const summary = {
      imported: result.imported,
      replaced: result.replaced,
      skipped: result.skipped,
      failed: failures.length,
    };
    const lines = records.length + errors.length;
    return {
      json: { ...summary, lines, failures },
      ...(failures.length === 0
        ? {}
        : {
            error: {
              code: "IMPORT_INCOMPLETE",
              message: `${plural(failures.length, "line")} of ${lines} failed; the other lines were imported.`,
            },
          }),
      render() {
        const { style } = context;
        const head =
          `${style.green("Imported")} ${summary.imported} · replaced ${summary.replaced} · ` +
          `skipped ${summary.skipped} · failed ${failures.length > 0 ? style.red(String(failures.length)) : 0}` +
          style.dim(` (${plural(lines, "line")} from ${source === "-" ? "stdin" : source})`);
        if (failures.length === 0) return head;
        const rows = failures.map((failure) => [
          `line ${failure.line}`,
          { text: failure.code, paint: style.red },
          failure.message,
        ]);
        return `${head}\n${renderTable([{ header: "" }, { header: "" }, { header: "" }], rows, { style, header: false })}`;
      },
    };
  },
});

/** A line that names no scope gets the command's scope (flags, then the defaults). */
function withScope(record: ImportRecord, scope: ScopeOptions): ImportRecord {
  const named = SCOPE_KEYS.some((key) => record[key] !== undefined);
  if (named) return record;
  const copy: ImportRecord = { ...record };
  for (const [option, column] of Object.entries(SCOPE_KEY_OF_OPTION)) {
    const value = scope[option as keyof ScopeOptions];
    if (value !== undefined) copy[column] = value;
  }
  return copy;
}

function sdkFailures(
  items: readonly { index: number; status: string; error?: { code: string; message: string } }[],
  records: readonly ImportLine[],
): LineError[] {
  return items
    .filter((item) => item.status === "failed")
    .map((item) => ({
      line: records[item.index]?.line ?? 0,
      code: item.error?.code ?? "INTERNAL",
      message: item.error?.message ?? "failed",
    }));
}
