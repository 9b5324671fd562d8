/**
 * The plugin's config (`plugins.entries.lucid.config` in openclaw.json), checked against the same
 * rules as the manifest's `configSchema` (OpenClaw validates it too; this is for the shapes a
 * schema cannot say, and for defaults).
 *
 * @module
 */

import { osUser, type RecallSettings, readCommand, readRecall } from "../../shared/plugin-settings.js";

export interface PluginConfig {
  readonly command: readonly string[];
  readonly home?: string;
  readonly userId: string;
  readonly autoRecall: boolean;
  readonly autoCapture: boolean;
  readonly autoDream: boolean;
  readonly notes: boolean;
  readonly topK: number;
  readonly recall: RecallSettings;
}

const KEYS = [
  "command",
  "home",
  "userId",
  "autoRecall",
  "autoCapture",
  "autoDream",
  "notes",
  "topK",
  "recall",
];

export function readConfig(raw: unknown): PluginConfig {
  const given = (raw ?? {}) as Record<string, unknown>;
  if (typeof given !== "object" || Array.isArray(given))
    throw new Error("lucid: the plugin config must be an object.");
  const unknown = Object.keys(given).filter((key) => !KEYS.includes(key));
  if (unknown.length > 0) throw new Error(`lucid: unknown config keys: ${unknown.join(", ")}.`);
  const flag = (name: string, fallback: boolean) => {
    const value = given[name];
    if (value === undefined) return fallback;
    if (typeof value !== "boolean") throw new Error(`lucid: ${name} must be true or false.`);
    return value;
  };
  const topK = given.topK ?? 5;
  if (typeof topK !== "number" || !Number.isInteger(topK) || topK < 1)
    throw new Error("lucid: topK must be a whole number from 1.");
  return {
    command: readCommand(given.command, "command"),
    ...(typeof given.home === "string" ? { home: given.home } : {}),
    userId: typeof given.userId === "string" && given.userId !== "" ? given.userId : osUser(),
    autoRecall: flag("autoRecall", true),
    autoCapture: flag("autoCapture", true),
    autoDream: flag("autoDream", true),
    notes: flag("notes", true),
    topK,
    recall: readRecall(given.recall),
  };
}
