/**
 * The plugin's settings: the options given in `opencode.json` (`"plugin": [["lucid-opencode",
 * {…}]]`), then the environment over them, so one shell can point at another Lucid or switch a
 * feature off without editing a config file (a plugin file in `.opencode/plugins/` has no options
 * at all). A bad value stops the plugin with a message naming the setting and what it accepts.
 *
 * @module
 */

import { userInfo } from "node:os";

export interface RecallSettings {
  readonly tokenBudget?: number;
  readonly maxMemories?: number;
  readonly threshold?: number;
  readonly maxNotes?: number;
}

export interface PluginConfig {
  /** How to run Lucid, as argv. */
  readonly command: readonly string[];
  /** Lucid's home (`--home`); unset, Lucid uses `$LUCID_HOME` or `~/.lucid`. */
  readonly home?: string;
  readonly userId: string;
  /** Put recalled memories into the system prompt before each model call. */
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
const RECALL_KEYS = ["tokenBudget", "maxMemories", "threshold", "maxNotes"] as const;

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
    command: readCommand(env.LUCID_COMMAND, raw.command),
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
function readCommand(fromEnv: string | undefined, fromOptions: unknown): string[] {
  const variable = nonEmpty(fromEnv);
  if (variable !== undefined) {
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
  if (fromOptions === undefined) return ["lucid"];
  if (typeof fromOptions === "string" && fromOptions !== "") return [fromOptions];
  if (isArgv(fromOptions)) return fromOptions;
  throw new Error(
    'lucid: the option command must be a program or argv such as ["node", "/path/to/lucid.js"].',
  );
}

function isArgv(value: unknown): value is string[] {
  return (
    Array.isArray(value) && value.length > 0 && value.every((part) => typeof part === "string" && part !== "")
  );
}

function readRecall(value: unknown): RecallSettings {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error("lucid: the option recall must be an object such as { maxMemories: 10 }.");
  }
  const given = value as Record<string, unknown>;
  const unknown = Object.keys(given).filter((key) => !(RECALL_KEYS as readonly string[]).includes(key));
  if (unknown.length > 0) {
    throw new Error(
      `lucid: unknown recall options: ${unknown.join(", ")} (known: ${RECALL_KEYS.join(", ")}).`,
    );
  }
  for (const key of RECALL_KEYS) {
    const each = given[key];
    if (each === undefined) continue;
    const whole = key !== "threshold";
    if (typeof each !== "number" || each < 0 || (whole ? !Number.isInteger(each) : each > 1)) {
      throw new Error(
        `lucid: recall.${key} must be ${whole ? "a whole number of 0 or more" : "a number from 0 to 1"}, got ${JSON.stringify(each)}.`,
      );
    }
  }
  return given as RecallSettings;
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

function osUser(): string {
  try {
    return userInfo().username || "default";
  } catch {
    return "default";
  }
}
