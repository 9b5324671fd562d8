import type { FlagsDef } from "../command.js";

/** Flags every command takes, before or after the command name. */
export const GLOBAL_FLAGS = {
  home: {
    type: "string",
    valueHint: "DIR",
    description: "Lucid's home: lucid.db and lucid.config.json (default $LUCID_HOME, else ~/.lucid)",
  },
  json: { type: "boolean", description: 'print one JSON document on stdout: {"ok": true, ...}' },
  debug: { type: "boolean", description: "print stack traces with errors" },
  reveal: {
    type: "boolean",
    description: "print credentials in stored values as they are (masked as [MASKED:kind] by default)",
  },
  color: { type: "boolean", description: "colour even when stdout is not a terminal" },
  "no-color": { type: "boolean", description: "never colour (also NO_COLOR=1)" },
  help: { type: "boolean", description: "show help (-h; also `lucid help <command>`)" },
  version: { type: "boolean", description: "print the version (-v)" },
} as const satisfies FlagsDef;

export const SHORT_FLAGS: Record<string, string> = { h: "help", v: "version" };

/** `--user --agent --app --run`, on every command a scope applies to. */
export const SCOPE_FLAGS = {
  user: { type: "string", valueHint: "ID", description: "user_id scope" },
  agent: { type: "string", valueHint: "ID", description: "agent_id scope" },
  app: { type: "string", valueHint: "ID", description: "app_id scope" },
  run: { type: "string", valueHint: "ID", description: "run_id scope" },
} as const satisfies FlagsDef;

export interface GlobalFlags {
  home: string | undefined;
  json: boolean;
  debug: boolean;
  /** Print stored credentials unmasked. */
  reveal: boolean;
  /** `--color` true, `--no-color` false, neither undefined. */
  color: boolean | undefined;
  help: boolean;
  version: boolean;
}
