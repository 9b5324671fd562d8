/**
 * The plugin's settings: the options given in `opencode.json` (`"plugin": [["lucid-opencode",
 * {…}]]`), then the environment over them, so one shell can point at another Lucid or switch a
 * feature off without editing a config file (a plugin file in `.opencode/plugins/` has no options
 * at all). A bad value stops the plugin with a message naming the setting and what it accepts.
 *
 * @module
 */

import {
  isArgv,
  osUser,
  type RecallSettings,
  readCommand,
  readRecall,
} from "../../shared/plugin-settings.js";

export interface PluginConfig {
  /** How to run Lucid, as argv. */
  readonly command: readonly string[];
  /** Lucid's home (`--home`); unset, Lucid uses `$LUCID_HOME` or `~/.lucid`. */
  readonly home?: string;
  readonly userId: string;
  /** Put recalled memories beside the user's message before each model call. */
  readonly autoRecall: boolean;
  /** Capture each finished turn's durable facts. */
  readonly autoCapture: boolean;
  /** Let Lucid dream when its gate passes (off: `LUCID_DREAM=off` for the Lucid process). */
  readonly autoDream: boolean;
  /** Search the project's Markdown notes (`MEMORY.md`, `memory/*.md`) too: `--workspace <project>`. */
  readonly notes: boolean;
  readonly recall: RecallSettings;
}

type Env = Readonly<Record<string, string | undefined>>;

const OPTION_KEYS = [
  "command",
  "home",
  "userId",
  "autoRecall",
  "autoCapture",
  "autoDream",
  "notes",
  "recall",
];

/** The environment variable of each switch. */
export const SWITCH_VARIABLES = {
  autoRecall: "LUCID_OPENCODE_AUTO_RECALL",
  autoCapture: "LUCID_OPENCODE_AUTO_CAPTURE",
  autoDream: "LUCID_OPENCODE_AUTO_DREAM",
  notes: "LUCID_OPENCODE_NOTES",
} as const;

const ON = ["1", "true", "on", "yes"];
const OFF = ["0", "false", "off", "no"];

/**
 * @example
 * readConfig({ userId: "alice" }, { LUCID_OPENCODE_AUTO_CAPTURE: "0" });
 * // => { command: ["lucid"], userId: "alice", autoCapture: false, … }
 */
export function readConfig(options: unknown, env: Env = process.env): PluginConfig {
  const given = options ?? {};
  if (typeof given !== "object" || Array.isArray(given)) {
    throw new Error("lucid: the plugin options must be an object.");
  }
  const raw = given as Record<string, unknown>;
  const unknown = Object.keys(raw).filter((key) => !OPTION_KEYS.includes(key));
  if (unknown.length > 0) {
    throw new Error(
      `lucid: unknown plugin options: ${unknown.join(", ")} (known: ${OPTION_KEYS.join(", ")}).`,
    );
  }
  const flag = (name: keyof typeof SWITCH_VARIABLES): boolean => {
    const variable = SWITCH_VARIABLES[name];
    const fromEnv = env[variable];
    if (fromEnv !== undefined && fromEnv !== "") {
      const value = fromEnv.trim().toLowerCase();
      if (ON.includes(value)) return true;
      if (OFF.includes(value)) return false;
      throw new Error(
        `lucid: ${variable} must be 1 or 0 (or true/false, on/off, yes/no), got ${JSON.stringify(fromEnv)}.`,
      );
    }
    const value = raw[name];
    if (value === undefined) return true;
    if (typeof value !== "boolean") throw new Error(`lucid: the option ${name} must be true or false.`);
    return value;
  };
  const home = nonEmpty(env.LUCID_HOME) ?? optionalString(raw, "home");
  return {
    command: commandOf(env.LUCID_COMMAND, raw.command),
    ...(home === undefined ? {} : { home }),
    userId: nonEmpty(env.LUCID_USER_ID) ?? optionalString(raw, "userId") ?? osUser(),
    autoRecall: flag("autoRecall"),
    autoCapture: flag("autoCapture"),
    autoDream: flag("autoDream"),
    notes: flag("notes"),
    recall: readRecall(raw.recall),
  };
}

/** `LUCID_COMMAND` is a JSON argv (`["node", "/opt/lucid/bin/lucid.js"]`) or one program. */
function commandOf(fromEnv: string | undefined, fromOptions: unknown): string[] {
  const variable = nonEmpty(fromEnv);
  if (variable === undefined) return readCommand(fromOptions, "the option command");
  if (!variable.trimStart().startsWith("[")) return [variable];
  let parsed: unknown;
  try {
    parsed = JSON.parse(variable);
  } catch {
    throw new Error(`lucid: LUCID_COMMAND looks like a JSON array but does not parse: ${variable}`);
  }
  if (isArgv(parsed)) return parsed;
  throw new Error(
    'lucid: LUCID_COMMAND must be a program or a JSON array of strings, e.g. ["node", "/path/to/lucid.js"].',
  );
}

function optionalString(raw: Record<string, unknown>, key: string): string | undefined {
  const value = raw[key];
  if (value === undefined) return undefined;
  if (typeof value !== "string" || value === "")
    throw new Error(`lucid: the option ${key} must be a non-empty string.`);
  return value;
}

function nonEmpty(value: string | undefined): string | undefined {
  return value === undefined || value.trim() === "" ? undefined : value;
}
