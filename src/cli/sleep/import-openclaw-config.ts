/**
 * `lucid sleep import-openclaw --config openclaw.json`: OpenClaw's dreaming settings merged into the
 * `sleep` section of the home's `lucid.config.json`. The rest of the file is kept as it was (other
 * sections, `$comment` keys, `{ "env": … }` references, the key order and the indent); the file is
 * written only when the result loads, and replaced in one rename.
 *
 * @module
 */

import { mkdir, readFile, realpath, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { isSecretKey, validateConfig } from "../../config/config-schema.js";
import { readConfigText } from "../../config/load-config.js";
import { resolveEnvRefs } from "../../config/resolve-env-refs.js";
import { configError, LucidError } from "../../errors.js";
import { type IgnoredSetting, openClawDreamingSettings } from "../../sleep/import-openclaw-config.js";
import type { CommandContext, CommandOutput, FlagsDef } from "../command.js";
import { plural } from "../output/format.js";
import { UsageError } from "../usage-error.js";

type Json = Record<string, unknown>;

export interface SetSetting {
  /** The dotted key in `lucid.config.json`: `sleep.phases.deep.minScore`. */
  readonly key: string;
  readonly value: unknown;
}

/**
 * Imports the settings and reports `{ configFile, set, ignored }`.
 *
 * @throws LucidError `INVALID_ARGUMENT` for an OpenClaw file without dreaming settings, `INVALID_CONFIG`
 *   when `lucid.config.json` does not load as it is, `IO_ERROR` when a file cannot be read or written.
 */
export async function importOpenClawConfig(
  context: Pick<CommandContext<FlagsDef>, "io" | "paths" | "style">,
  flags: { config: string; file?: string | undefined },
): Promise<CommandOutput> {
  if (flags.file !== undefined) {
    throw new UsageError(
      "import-openclaw takes --config (OpenClaw's settings) or --file (its recall store), not both: run it once for each.",
      "sleep",
    );
  }
  const source = resolve(context.io.cwd, flags.config);
  const { settings, ignored } = openClawDreamingSettings(await readSource(source), source);
  const configFile = context.paths.configFile;
  const text = await readConfigText(configFile);
  const raw = text === undefined ? {} : parseConfig(text, configFile);
  // The file as it is must load, so an error in it names its own key rather than one written here.
  checkLoads(raw, configFile, context.io.env);
  const set = settingsToSet(settings, "sleep");
  if (set.length > 0) {
    const merged = { ...raw, sleep: merge(isObject(raw.sleep) ? raw.sleep : {}, settings) };
    checkLoads(merged, configFile, context.io.env);
    await writeAtomically(configFile, `${JSON.stringify(merged, null, indentOf(text))}\n`);
  }
  const { style } = context;
  return {
    json: { configFile, set, ignored },
    render: () => renderImport({ source, configFile, set, ignored }, style),
  };
}

function renderImport(
  result: {
    source: string;
    configFile: string;
    set: readonly SetSetting[];
    ignored: readonly IgnoredSetting[];
  },
  style: CommandContext<FlagsDef>["style"],
): string {
  const lines =
    result.set.length === 0
      ? [`Nothing to set from ${result.source}: ${result.configFile} left unchanged.`]
      : [
          `Set ${plural(result.set.length, "key")} in ${result.configFile} from ${result.source}:`,
          ...result.set.map((entry) => `  ${entry.key} = ${JSON.stringify(entry.value)}`),
        ];
  if (result.ignored.length > 0) {
    lines.push(`Ignored ${plural(result.ignored.length, "key")} of OpenClaw's config:`);
    lines.push(...result.ignored.map((entry) => style.dim(`  ${entry.key}: ${entry.reason}`)));
  }
  return lines.join("\n");
}

/** Every leaf of `value` as a dotted key; `null` (maxAgeDays: no limit) is a leaf. */
function settingsToSet(value: object, path: string): SetSetting[] {
  return Object.entries(value).flatMap(([name, item]) =>
    isObject(item) ? settingsToSet(item, `${path}.${name}`) : [{ key: `${path}.${name}`, value: item }],
  );
}

/** `into` with `from`'s leaves written over it, every other key kept in place. */
function merge(into: Json, from: object): Json {
  const merged: Json = { ...into };
  for (const [name, value] of Object.entries(from)) {
    const current = merged[name];
    merged[name] = isObject(value) && isObject(current) ? merge(current, value) : value;
  }
  return merged;
}

function checkLoads(raw: Json, file: string, env: Readonly<Record<string, string | undefined>>): void {
  validateConfig(resolveEnvRefs(raw, { env, file, deferred: isSecretKey }), file);
}

/** The indent the file already uses (two spaces for a new one). */
function indentOf(text: string | undefined): string {
  return (text === undefined ? undefined : /^[ \t]+(?=")/mu.exec(text)?.[0]) ?? "  ";
}

async function readSource(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new LucidError("IO_ERROR", `Cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
}

function parseConfig(text: string, file: string): Json {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw configError(file, "", `is not valid JSON (${(error as Error).message}); fix it first.`, error);
  }
  if (!isObject(parsed)) throw configError(file, "", "must hold an object; fix it first.");
  return parsed;
}

/**
 * Through a temporary file and a rename, keeping the file's mode (it may hold secrets: 0600). A
 * config that is a link (a dotfiles checkout) is written where it points, the link left as it is.
 */
async function writeAtomically(file: string, text: string): Promise<void> {
  const target = await realpath(file).catch(() => file);
  const temporary = `${target}.${process.pid}.tmp`;
  try {
    const mode = (await stat(target).catch(() => undefined))?.mode;
    await mkdir(dirname(target), { recursive: true });
    await writeFile(temporary, text, mode === undefined ? {} : { mode });
    await rename(temporary, target);
  } catch (error) {
    await rm(temporary, { force: true }).catch(() => undefined);
    throw new LucidError("IO_ERROR", `Cannot write ${file}: ${(error as Error).message}`, { cause: error });
  }
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
