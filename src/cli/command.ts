/**
 * What a command is: a declarative definition (name, arguments, flags, examples) and a `run`
 * function that returns data. Commands never print their result or exit: `main.ts` renders the
 * output (human or `--json`) and turns errors into exit codes.
 *
 * @module
 */

import type { HomePaths } from "../config/home.js";
import type { LoadedConfig, Setup } from "../config/load-config.js";
import type { ScopeOptions } from "../core/scope.js";
import type { LucidErrorCode } from "../errors.js";
import type { Filters } from "../filters/filter.js";
import type { MemoryOptions } from "../sdk/create-context.js";
import type { Memory } from "../sdk/memory.js";
import type { CliIo } from "./io.js";
import type { Style } from "./output/style.js";

export interface FlagDef {
  type: "string" | "boolean";
  description: string;
  /** Shown in usage after the flag: `--limit N`. */
  valueHint?: string;
}

export type FlagsDef = Record<string, FlagDef>;

export type ParsedFlags<F extends FlagsDef> = {
  [K in keyof F]: F[K]["type"] extends "boolean" ? boolean : string | undefined;
};

export interface ArgDef {
  name: string;
  description: string;
  required: boolean;
}

export interface CommandOutput {
  /** Fields of the `--json` document after `"ok"`. */
  json: Record<string, unknown>;
  /** Human output for stdout (empty when the command streamed its own, like `export`). */
  render: () => string;
  /** Set when the command ran but did not fully succeed (an import with bad lines): exit 1. */
  error?: { code: LucidErrorCode; message: string };
}

export interface CommandContext<F extends FlagsDef> {
  args: string[];
  flags: ParsedFlags<F>;
  /** Global flags. */
  json: boolean;
  io: CliIo;
  /** Colours for stdout (off unless it is a TTY, and never with NO_COLOR). */
  style: Style;
  /** Colours for stderr (progress bars, notices). */
  errorStyle: Style;
  /** The home directory and its files, resolved from --home / LUCID_HOME without reading them. */
  paths: HomePaths;
  /** The config, the one resolved policy, `openMemory` options and the default scope, read once. */
  setup(): Promise<Setup>;
  config(): Promise<LoadedConfig>;
  /**
   * The scope of this call: `--user --agent --app --run`, then (unless `defaults: false`)
   * `LUCID_USER_ID`… and the config's `defaults` for keys neither the flags nor `filters` name.
   */
  scope(options?: { filters?: Filters | undefined; defaults?: boolean }): Promise<ScopeOptions>;
  /** The store of the home, opened on first call and closed after the command. */
  memory(extra?: Partial<MemoryOptions>): Promise<Memory>;
  /**
   * What may be printed of stored values: `value` with every detected credential in its stored
   * content masked, unless `--reveal`. Every command that prints memories, history or plans
   * passes them through here.
   */
  shown<T>(value: T): Promise<T>;
}

export interface CommandDef<F extends FlagsDef> {
  name: string;
  summary: string;
  args: readonly ArgDef[];
  flags: F;
  /** Accepts `--user --agent --app --run`. */
  scoped: boolean;
  examples: readonly string[];
  /** Extra paragraphs for `lucid help <command>`. */
  notes?: readonly string[];
  run(context: CommandContext<F>): Promise<CommandOutput>;
}

/** A command with its flag types erased, for the command table. */
export type Command = CommandDef<FlagsDef>;

export function defineCommand<F extends FlagsDef>(definition: CommandDef<F>): Command {
  return definition as unknown as Command;
}
