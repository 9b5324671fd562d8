import { open, readdir, rename, rm } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { processIsGone } from "../../core/process-gone.js";
import { jsonObjectFlag } from "../args/flag-values.js";
import { scopeAndFilters } from "../args/scope-filters.js";
import { defineCommand } from "../command.js";
import { writeAll } from "../io.js";
import { plural } from "../output/format.js";
import { UsageError } from "../usage-error.js";

export const exportCommand = defineCommand({
  name: "export",
  summary: "Write every memory as JSONL (oldest first, stable bytes), to stdout or a file",
  args: [],
  flags: {
    output: {
      type: "string",
      valueHint: "FILE",
      description: "write to FILE (replaced whole at the end) instead of stdout",
    },
    filters: { type: "string", valueHint: "JSON", description: "only memories matching these filters" },
  },
  scoped: true,
  examples: [
    "lucid export --output backup.jsonl",
    "lucid export --user alice > alice.jsonl",
    "lucid export --output backup.jsonl --json",
  ],
  notes: [
    "Exports everything, expired memories included, unless scope flags or --filters narrow it (the default " +
      "scope from LUCID_USER_ID or the config is not applied). export → import into an empty home → export " +
      "gives identical bytes.",
  ],
  async run(context) {
    const filtersFlag = jsonObjectFlag(context.flags.filters, "filters", "export");
    const output = context.flags.output === "-" ? undefined : context.flags.output;
    if (output === undefined && context.json) {
      throw new UsageError("export writes JSONL to stdout; with --json, give --output FILE.", "export");
    }
    const filters = scopeAndFilters(await context.scope({ defaults: false }), filtersFlag);
    const memory = await context.memory({ allowEmbedderChange: true });
    const records = memory.exportMemories(filters === undefined ? {} : { filters });
    let exported = 0;
    const write = async (sink: Sink) => {
      for await (const record of records) {
        await sink(`${JSON.stringify(record)}\n`);
        exported++;
      }
    };
    if (output === undefined) {
      await write((chunk) => writeAll(context.io.stdout, chunk));
      return { json: { exported }, render: () => "" };
    }
    await writeFileAtomically(output, write);
    return {
      json: { exported, output },
      render: () =>
        `${context.style.green("Exported")} ${plural(exported, "memory", "memories")} to ${output}`,
    };
  },
});

type Sink = (chunk: string) => Promise<void>;

/** Flush file writes in chunks of about this many characters. */
const FILE_CHUNK = 64 * 1024;

/**
 * Writes to a temporary file beside `path` and renames it over `path` once complete, so a failed
 * export never leaves half a backup where the last good one was. The temporary file of an export
 * that was killed (its process is gone) is removed first.
 */
async function writeFileAtomically(path: string, write: (sink: Sink) => Promise<void>): Promise<void> {
  await removeStaleTemporaries(path);
  const temporary = `${path}.${process.pid}.tmp`;
  const file = await open(temporary, "w");
  try {
    let buffer = "";
    await write(async (chunk) => {
      buffer += chunk;
      if (buffer.length < FILE_CHUNK) return;
      await file.write(buffer);
      buffer = "";
    });
    await file.write(buffer);
    await file.sync(); // on disk before it replaces the last good backup
    await file.close();
    await rename(temporary, path);
  } catch (error) {
    await file.close().catch(() => undefined);
    await rm(temporary, { force: true });
    throw error;
  }
}

/** `backup.jsonl.<pid>.tmp` files beside `path` whose export process no longer runs. */
async function removeStaleTemporaries(path: string): Promise<void> {
  const prefix = `${basename(path)}.`;
  const names = await readdir(dirname(path)).catch(() => [] as string[]);
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith(".tmp")) continue;
    const pid = Number(name.slice(prefix.length, -".tmp".length));
    if (!Number.isInteger(pid) || pid <= 0 || pid === process.pid || !processIsGone(pid)) continue;
    await rm(join(dirname(path), name), { force: true });
  }
}
