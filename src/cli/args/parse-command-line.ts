/**
 * Splits argv into the command name, its arguments and flags, with `node:util` `parseArgs` in
 * strict mode: an unknown flag, a missing value or an extra argument is a `UsageError`.
 *
 * @module
 */

import { parseArgs } from "node:util";
import { closestName } from "../../text/closest-name.js";
import type { Command, FlagsDef } from "../command.js";
import { UsageError } from "../usage-error.js";
import { GLOBAL_FLAGS, type GlobalFlags, SCOPE_FLAGS, SHORT_FLAGS } from "./global-flags.js";

type ParseOptions = NonNullable<Parameters<typeof parseArgs>[0]>["options"];

/** Flags that take a value, so that the value is not mistaken for the command name. */
const VALUE_FLAGS = new Set(["--home", ...Object.keys(SCOPE_FLAGS).map((name) => `--${name}`)]);

/** The command name (the first argument that is not a flag or a flag's value) and the rest. */
export function splitCommand(argv: readonly string[]): { name: string | undefined; rest: string[] } {
  for (let i = 0; i < argv.length; i++) {
    const token = argv[i] as string;
    if (token === "--") break;
    if (token.startsWith("-")) {
      if (VALUE_FLAGS.has(token)) i++;
      continue;
    }
    return { name: token, rest: [...argv.slice(0, i), ...argv.slice(i + 1)] };
  }
  return { name: undefined, rest: [...argv] };
}

export interface ParsedCommandLine {
  globals: GlobalFlags;
  flags: Record<string, string | boolean | undefined>;
  args: string[];
}

/** Parses the arguments of `command` (or, without one, the global flags alone). */
export function parseCommandLine(rest: readonly string[], command: Command | undefined): ParsedCommandLine {
  const flags: FlagsDef = {
    ...GLOBAL_FLAGS,
    ...(command?.scoped ? SCOPE_FLAGS : {}),
    ...command?.flags,
  };
  const options: ParseOptions = {};
  for (const [name, def] of Object.entries(flags)) options[name] = { type: def.type };
  for (const [short, name] of Object.entries(SHORT_FLAGS)) {
    const option = options[name];
    if (option !== undefined) option.short = short;
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: [...rest], options, allowPositionals: true, strict: true });
  } catch (error) {
    throw new UsageError(describeParseError(error, command, Object.keys(flags)), command?.name);
  }
  const values = parsed.values as Record<string, string | boolean | undefined>;
  const globals: GlobalFlags = {
    home: values.home as string | undefined,
    json: values.json === true,
    debug: values.debug === true,
    reveal: values.reveal === true,
    color: values["no-color"] === true ? false : values.color === true ? true : undefined,
    help: values.help === true,
    version: values.version === true,
  };
  if (!globals.help) checkArgs(parsed.positionals, command);
  return { globals, flags: values, args: parsed.positionals };
}

function checkArgs(args: readonly string[], command: Command | undefined): void {
  if (command === undefined) return;
  const max = command.args.length;
  if (args.length > max) {
    const extra = args[max] as string;
    const hint = max === 0 ? "it takes no arguments" : "quote an argument that contains spaces";
    throw new UsageError(`unexpected argument ${JSON.stringify(extra)} (${hint}).`, command.name);
  }
  const missing = command.args.find((arg, i) => arg.required && args[i] === undefined);
  if (missing !== undefined) throw new UsageError(`missing <${missing.name}>.`, command.name);
}

function describeParseError(error: unknown, command: Command | undefined, known: readonly string[]): string {
  const message = error instanceof Error ? error.message : String(error);
  const code = (error as { code?: string }).code;
  const option = /'(-[^' ]+)/.exec(message)?.[1];
  const where = command === undefined ? "" : ` for \`lucid ${command.name}\``;
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && option !== undefined) {
    const near = option.startsWith("--") ? closestName(option.slice(2), known) : undefined;
    return `unknown flag ${option}${where}${near === undefined ? "" : ` (did you mean --${near}?)`}.`;
  }
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE" && option !== undefined) {
    return /argument missing/.test(message)
      ? `${option} needs a value.`
      : /does not take an argument/.test(message)
        ? `${option} does not take a value.`
        : `${option}: ${message}`;
  }
  return message;
}
