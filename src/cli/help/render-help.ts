/**
 * `lucid --help`, `lucid help <command>` and the usage lines under a usage error, all rendered
 * from the command table's declarations.
 *
 * @module
 */

import { GLOBAL_FLAGS, SCOPE_FLAGS } from "../args/global-flags.js";
import type { Command, FlagsDef } from "../command.js";
import type { Style } from "../output/style.js";

const GENERAL_EXAMPLES = [
  'lucid add "Alice is allergic to peanuts" --user alice --category identity',
  'lucid search "what can alice not eat?" --user alice',
  "lucid list --user alice --json | jq '.results[].memory'",
  "lucid export --output backup.jsonl && lucid import backup.jsonl --home /tmp/copy",
];

export function renderGeneralHelp(commands: readonly Command[], style: Style, version: string): string {
  const width = Math.max(...commands.map((command) => command.name.length));
  return [
    `${style.bold("lucid")} ${version} — local-first long-term memory for AI agents`,
    "",
    style.bold("Usage"),
    "  lucid <command> [arguments] [flags]",
    "",
    style.bold("Commands"),
    ...commands.map((command) => `  ${style.cyan(command.name.padEnd(width))}  ${command.summary}`),
    "",
    style.bold("Global flags"),
    ...renderFlags(GLOBAL_FLAGS, style),
    "",
    style.bold("Examples"),
    ...GENERAL_EXAMPLES.map((example) => `  ${example}`),
    "",
    `Run ${style.cyan("lucid help <command>")} for a command's flags and examples.`,
  ].join("\n");
}

export function renderCommandHelp(command: Command, style: Style): string {
  const lines = [
    `${style.bold(`lucid ${command.name}`)} — ${command.summary}`,
    "",
    style.bold("Usage"),
    `  ${usageLine(command)}`,
  ];
  if (command.args.length > 0) {
    const width = Math.max(...command.args.map((arg) => arg.name.length + 2));
    lines.push("", style.bold("Arguments"));
    for (const arg of command.args) lines.push(`  ${`<${arg.name}>`.padEnd(width)}  ${arg.description}`);
  }
  if (Object.keys(command.flags).length > 0)
    lines.push("", style.bold("Flags"), ...renderFlags(command.flags, style));
  if (command.scoped) {
    lines.push(
      "",
      style.bold("Scope"),
      ...renderFlags(SCOPE_FLAGS, style),
      style.dim(
        "  Unset keys default to LUCID_USER_ID / LUCID_AGENT_ID / LUCID_APP_ID, then `defaults` in the config.",
      ),
    );
  }
  if (command.notes !== undefined) {
    lines.push("", style.bold("Notes"));
    const paragraphs = command.notes.map((note) => wrapText(note, NOTE_WIDTH, "  "));
    paragraphs.forEach((paragraph, i) => {
      lines.push(...(i > 0 ? [""] : []), ...paragraph);
    });
  }
  lines.push("", style.bold("Examples"), ...command.examples.map((example) => `  ${example}`));
  lines.push("", style.dim("Global flags: --home DIR, --json, --debug, --no-color (see `lucid --help`)."));
  return lines.join("\n");
}

/** `lucid search <query> [flags]` */
export function usageLine(command: Command): string {
  const args = command.args.map((arg) => (arg.required ? `<${arg.name}>` : `[${arg.name}]`));
  const hasFlags = command.scoped || Object.keys(command.flags).length > 0;
  return ["lucid", command.name, ...args, ...(hasFlags ? ["[flags]"] : [])].join(" ");
}

/** The lines under a usage error. */
export function renderUsageHint(command: Command | undefined, style: Style): string {
  if (command === undefined)
    return `${style.dim("usage:")} lucid <command> [arguments] [flags]   (lucid --help)`;
  return `${style.dim("usage:")} ${usageLine(command)}   (lucid help ${command.name})`;
}

/** Notes are wrapped to a comfortable reading width, whatever the terminal's. */
const NOTE_WIDTH = 92;

function wrapText(text: string, width: number, indent: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/)) {
    if (line !== "" && indent.length + line.length + 1 + word.length > width) {
      lines.push(indent + line);
      line = word;
    } else line = line === "" ? word : `${line} ${word}`;
  }
  if (line !== "") lines.push(indent + line);
  return lines;
}

function renderFlags(flags: FlagsDef, style: Style): string[] {
  const entries = Object.entries(flags).map(([name, def]) => [
    `--${name}${def.valueHint === undefined ? "" : ` ${def.valueHint}`}`,
    def.description,
  ]);
  const width = Math.max(...entries.map(([flag]) => (flag as string).length));
  return entries.map(
    ([flag, description]) => `  ${style.cyan((flag as string).padEnd(width))}  ${description}`,
  );
}
