import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { LucidError } from "../../errors.js";
import { isPostgresUrl, openStore, POSTGRES_DEFAULTS, redactUrl } from "../../sdk/open-store.js";
import { type CopyResult, copyStore } from "../../store/copy-store.js";
import { TRANSFER_KINDS } from "../../store/ports/transfer.js";
import type { MemoryStore } from "../../store/store.js";
import { integerFlag } from "../args/flag-values.js";
import { defineCommand } from "../command.js";
import { createProgress } from "../output/progress.js";
import type { Style } from "../output/style.js";
import { renderTable } from "../output/table.js";
import { UsageError } from "../usage-error.js";

export const migrateCommand = defineCommand({
  name: "migrate",
  summary:
    "Copy the whole store into an empty one (SQLite → PostgreSQL, or back): ids, timestamps, history, runs; verified",
  args: [],
  flags: {
    to: {
      type: "string",
      valueHint: "URL|FILE",
      description: "the empty store to copy into: postgres://user@host/database, or a SQLite file",
    },
    from: {
      type: "string",
      valueHint: "FILE|URL",
      description: "the store to copy (default the home's lucid.db)",
    },
    schema: {
      type: "string",
      valueHint: "NAME",
      description: "the PostgreSQL schema of --to (default lucid)",
    },
    "from-schema": {
      type: "string",
      valueHint: "NAME",
      description: "the PostgreSQL schema of --from (default lucid)",
    },
    "batch-size": {
      type: "string",
      valueHint: "N",
      description: "records copied and committed together (default 500)",
    },
  },
  scoped: false,
  examples: [
    "lucid migrate --to postgres://lucid@db.internal/lucid",
    "lucid migrate --to postgres://lucid@db.internal/lucid --schema team_a --json",
    "lucid migrate --from postgres://lucid@db.internal/lucid --to ./lucid-copy.db",
  ],
  notes: [
    "Everything is copied as it is — memories with their vectors and entities, history (a deleted memory's " +
      "too), every session's messages, dream and sleep runs with their preimages, the gate, leases, recalls, " +
      "sleep state and events, the notes index — from one snapshot of the source, which stays as it was. " +
      "The counts of every kind are then compared.",
    "The target must be empty (a new schema or file). Stop the processes that write to the source first: " +
      "what they write during the copy is not copied, and the counts then fail to match.",
    "A copy that fails part-way leaves part of it in the target: drop that schema (or delete the file) and run " +
      "it again.",
    'Then switch: set "store" in lucid.config.json to { "provider": "postgres", "url": { "env": "LUCID_PG_URL" } } ' +
      "and export LUCID_PG_URL.",
  ],
  async run(context) {
    const { flags } = context;
    if (flags.to === undefined || flags.to.trim() === "") {
      throw new UsageError(
        "give the store to copy into: --to postgres://user@host/database or --to FILE.",
        "migrate",
      );
    }
    const pageSize = integerFlag(flags["batch-size"], "batch-size", "migrate");
    if (pageSize === 0) throw new UsageError("--batch-size must be at least 1.", "migrate");
    const from = locate(
      flags.from ?? context.paths.databasePath,
      flags["from-schema"],
      "from",
      context.io.cwd,
    );
    const to = locate(flags.to, flags.schema, "to", context.io.cwd);
    if (from.key === to.key) throw new UsageError("--from and --to name the same store.", "migrate");
    if (from.url === undefined && !existsSync(from.path)) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `No store at ${from.path} to copy. Give the store with --from FILE (or --home for the home's lucid.db).`,
        { details: { path: from.path } },
      );
    }

    const opened: MemoryStore[] = [];
    try {
      const source = await open(from);
      opened.push(source);
      const target = await open(to);
      opened.push(target);
      const progress = createProgress(context.io.stderr, { label: "Copying", style: context.errorStyle });
      const result = await copyStore(source, target, {
        ...(pageSize === undefined ? {} : { pageSize }),
        onProgress: ({ copied, total }) => progress.update(copied, total),
      }).finally(() => progress.done());
      const next = switchTo(to, context.paths.configFile);
      return {
        json: { from: source.location, to: target.location, ...result, switch: next },
        render: () => renderMigration({ source, target, result, next, style: context.style }),
      };
    } finally {
      for (const store of opened) await store.close().catch(() => undefined);
    }
  },
});

/** A store named on the command line: a PostgreSQL URL and schema, or a SQLite file. */
type Location =
  | { readonly url: string; readonly schema: string; readonly key: string }
  | { readonly url?: undefined; readonly path: string; readonly key: string };

function locate(given: string, schema: string | undefined, flag: "from" | "to", cwd: string): Location {
  const schemaFlag = flag === "to" ? "schema" : "from-schema";
  if (isPostgresUrl(given)) {
    const chosen = schema ?? POSTGRES_DEFAULTS.schema;
    // A URL is compared without its password, which may differ while naming the same database.
    return { url: given, schema: chosen, key: `${redactUrl(given)}#${chosen}` };
  }
  if (schema !== undefined) {
    throw new UsageError(
      `--${schemaFlag} names a PostgreSQL schema, but --${flag} is a SQLite file.`,
      "migrate",
    );
  }
  const path = resolve(cwd, given);
  return { path, key: path };
}

async function open(location: Location): Promise<MemoryStore> {
  return location.url === undefined
    ? openStore({ path: location.path })
    : openStore({ store: { provider: "postgres", url: location.url, schema: location.schema } });
}

/** What to change so that the home uses the copy. */
interface Switch {
  readonly config: string;
  readonly store: Record<string, unknown>;
  /** The variables to set, their values as they may be printed (a password masked). */
  readonly env: Readonly<Record<string, string>>;
}

function switchTo(to: Location, configFile: string): Switch {
  if (to.url === undefined) return { config: configFile, store: { provider: "sqlite" }, env: {} };
  return {
    config: configFile,
    store: {
      provider: "postgres",
      url: { env: "LUCID_PG_URL" },
      ...(to.schema === POSTGRES_DEFAULTS.schema ? {} : { schema: to.schema }),
    },
    env: { LUCID_PG_URL: redactUrl(to.url) },
  };
}

function renderMigration(input: {
  source: MemoryStore;
  target: MemoryStore;
  result: CopyResult;
  next: Switch;
  style: Style;
}): string {
  const { source, target, result, next, style } = input;
  const rows = TRANSFER_KINDS.map((kind) => [kind, String(result.counts[kind])]);
  const table = renderTable([{ header: "Kind" }, { header: "Records", align: "right" }], rows, { style });
  const head = `${style.green("Copied")} ${source.location} → ${target.location}`;
  const verified = `${style.green("Verified:")} both stores hold as many records of every kind.`;
  return `${head}\n${table}\n${verified}\n${renderSwitch(next, style)}`;
}

function renderSwitch(next: Switch, style: Style): string {
  const url = next.env.LUCID_PG_URL;
  if (url === undefined) {
    return `To use it, make it the lucid.db of a home whose lucid.config.json sets no "store".`;
  }
  const password = url.includes(":***@") ? style.dim(" (with the password in place of ***)") : "";
  return `To use it, set "store" in ${next.config} to ${JSON.stringify(next.store)}\nand export LUCID_PG_URL=${url}${password}.`;
}
