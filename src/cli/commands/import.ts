import { readFile } from "node:fs/promises";
import {
  type ImportEntry,
  type ImportEntryError,
  parseImportText,
} from "../../memory/import-input/parse-import-text.js";
import { choiceFlag, integerFlag } from "../args/flag-values.js";
import { defineCommand } from "../command.js";
import { readText } from "../io.js";
import { plural } from "../output/format.js";
import { createProgress } from "../output/progress.js";
import { renderTable } from "../output/table.js";

export const importCommand = defineCommand({
  name: "import",
  summary:
    "Load memories from a Lucid or Mem0 export (JSONL, JSON, Mem0 Markdown), keeping ids and timestamps",
  args: [{ name: "file", required: true, description: "a .jsonl, .json or Mem0 .md export, or - for stdin" }],
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
    "lucid import mem0-getall.json --user alice",
    "lucid import mem0-export-myproject-2026-11-30.md --user alice",
    "lucid export --home ~/.lucid | lucid import - --home /tmp/copy --on-conflict replace",
  ],
  notes: [
    "JSONL, one memory a line: {id?, text | memory, user_id?, agent_id?, app_id?, run_id?, category? | categories?, " +
      "metadata?, created_at? | createdAt?, updated_at? | updatedAt?, expires_at? | expiration_date?}. Other keys are ignored.",
    'Also a JSON array of such records, a Mem0 getAll or search dump ({"results": [...]}), or the Markdown file ' +
      "Mem0's export skill writes (front matter per memory). In a JSON document, failures name the record number.",
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
    const { records, errors } = parseImportText(text);
    const scope = await context.scope();
    const memory = await context.memory();
    const progress = createProgress(context.io.stderr, { label: "Importing", style: context.errorStyle });
    const result = await memory
      .importMemories(
        records.map((entry) => entry.record),
        {
          ...scope,
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

function sdkFailures(
  items: readonly { index: number; status: string; error?: { code: string; message: string } }[],
  records: readonly ImportEntry[],
): ImportEntryError[] {
  return items
    .filter((item) => item.status === "failed")
    .map((item) => ({
      line: records[item.index]?.line ?? 0,
      code: item.error?.code ?? "INTERNAL",
      message: item.error?.message ?? "failed",
    }));
}
