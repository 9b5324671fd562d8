/**
 * OpenClaw's dreaming settings (`openclaw-dreaming.md` §2), read into Lucid's `sleep` section: the
 * `dreaming` object of `plugins.entries.memory-core.config` (or of the plugin in `plugins.slots.memory`)
 * in OpenClaw's config file. The keys are the same; what differs is strictness. OpenClaw reads
 * `"true"` and numeric strings, floors counts and silently puts its default in place of anything
 * else; here the lenient forms are converted, and every value that OpenClaw would have replaced (or
 * that Lucid cannot take) is reported in `ignored` with why, so the result always passes Lucid's
 * config reader.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import { isTimeZone } from "../text/expiry-date.js";
import {
  cronShapeProblem,
  DEFAULT_SLEEP_SETTINGS,
  type DeepPhaseSettings,
  type LightPhaseSettings,
  type RemPhaseSettings,
  type SleepSettings,
  type SleepSettingsInput,
  STORAGE_MODES,
} from "./sleep-config.js";

/** A key left out, by its path in OpenClaw's file (`dreaming.phases.deep.sources`), and why. */
export interface IgnoredSetting {
  readonly key: string;
  readonly reason: string;
}

export interface OpenClawDreamingSettings {
  readonly settings: SleepSettingsInput;
  readonly ignored: IgnoredSetting[];
}

export const NOT_USED = "not used by Lucid";

type Json = Record<string, unknown>;

/** A converted value, or what is wrong with it (a phrase after the value: `is not …`). */
type Read<T> = { readonly value: T } | { readonly problem: string };
type Reader<T> = (value: unknown) => Read<T>;
/** A reader for every key Lucid takes: the type checker keeps the importer in step with the settings. */
type Readers<T> = { readonly [K in keyof T]-?: Reader<Exclude<T[K], undefined>> };

/**
 * The `sleep` settings an OpenClaw config file gives, and the keys left out. `file` names it in errors.
 *
 * @throws LucidError `INVALID_ARGUMENT` when the text is not JSON (comments and trailing commas
 *   allowed) or holds no dreaming section.
 * @example
 * const { settings, ignored } = openClawDreamingSettings(
 *   '{ "plugins": { "entries": { "memory-core": { "config": { "dreaming": { "enabled": "true", "model": "x" } } } } } }',
 * );
 * settings; // { enabled: true }
 * ignored; // [{ key: "dreaming.model", reason: "not used by Lucid" }]
 */
export function openClawDreamingSettings(
  text: string,
  file = "the OpenClaw config",
): OpenClawDreamingSettings {
  const root = parseConfigText(text, file);
  const pluginId = memoryPluginId(root);
  const where = `plugins.entries.${pluginId}.config.dreaming`;
  const dreaming = objectAt(root, ["plugins", "entries", pluginId, "config", "dreaming"]);
  if (dreaming === undefined || !isObject(dreaming)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      dreaming === undefined
        ? `No dreaming settings in ${file}: looked for ${where}. Pass OpenClaw's config file (usually ~/.openclaw/openclaw.json).`
        : `${file}: ${where} must be an object, got ${describe(dreaming)}.`,
    );
  }
  const ignored: IgnoredSetting[] = [];
  const top = readFields(dreaming, "dreaming", TOP_LEVEL, DEFAULT_SLEEP_SETTINGS, ignored, {
    storage: true,
    phases: true,
  });
  const storage = section(dreaming, "storage", "dreaming", ignored);
  const phases = section(dreaming, "phases", "dreaming", ignored);
  const settings: SleepSettingsInput = compact({
    ...top,
    timezone: top.timezone ?? userTimezone(root, dreaming, ignored),
    storage:
      storage === undefined
        ? undefined
        : nonEmpty(readFields(storage, "dreaming.storage", STORAGE, DEFAULT_SLEEP_SETTINGS.storage, ignored)),
    phases: phases === undefined ? undefined : nonEmpty(readPhases(phases, ignored)),
  });
  return { settings, ignored };
}

const boolean: Reader<boolean> = (value) => {
  if (typeof value === "boolean") return { value };
  const text = typeof value === "string" ? value.trim().toLowerCase() : undefined;
  if (text === "true" || text === "false") return { value: text === "true" };
  return { problem: "is not true or false" };
};

/** OpenClaw's number: a number, or a string holding one (trimmed); anything else is not one. */
function numberOf(value: unknown): number | undefined {
  const number =
    typeof value === "number"
      ? value
      : typeof value === "string" && value.trim() !== ""
        ? Number(value)
        : NaN;
  return Number.isFinite(number) ? number : undefined;
}

const fraction: Reader<number> = (value) => {
  const number = numberOf(value);
  return number !== undefined && number >= 0 && number <= 1
    ? { value: number }
    : { problem: "is not a number from 0 to 1" };
};

/** OpenClaw floors counts; a negative one falls back to its default. */
const count: Reader<number> = (value) => {
  const number = numberOf(value);
  return number !== undefined && Math.floor(number) >= 0
    ? { value: Math.floor(number) }
    : { problem: "is not a number of 0 or more" };
};

/** OpenClaw's optional positive integer: 0, negative, null or not a number is its default. */
const positiveInteger: Reader<number> = (value) => {
  const number = numberOf(value);
  return number !== undefined && Math.floor(number) > 0
    ? { value: Math.floor(number) }
    : { problem: "is not a number of 1 or more" };
};

const TOP_LEVEL: Readers<Pick<SleepSettings, "enabled" | "frequency" | "timezone">> = {
  enabled: boolean,
  frequency(value) {
    if (typeof value !== "string" || value.trim() === "") return { problem: "is not a cron expression" };
    const problem = cronShapeProblem(value);
    return problem === undefined
      ? { value: value.trim() }
      : { problem: `is not a cron expression: it ${problem}` };
  },
  timezone(value) {
    if (typeof value !== "string" || value.trim() === "") return { problem: "is not a time zone" };
    return isTimeZone(value.trim())
      ? { value: value.trim() }
      : { problem: 'is not an IANA time zone such as "Europe/Paris"' };
  },
};

const STORAGE: Readers<SleepSettings["storage"]> = {
  mode(value) {
    const mode = typeof value === "string" ? value.trim().toLowerCase() : undefined;
    return (STORAGE_MODES as readonly (string | undefined)[]).includes(mode)
      ? { value: mode as SleepSettings["storage"]["mode"] }
      : { problem: `is not one of ${STORAGE_MODES.map((m) => JSON.stringify(m)).join(", ")}` };
  },
  separateReports: boolean,
};

const LIGHT_PHASE: Readers<LightPhaseSettings> = {
  enabled: boolean,
  lookbackDays: count,
  limit: count,
  dedupeSimilarity: fraction,
};

const REM_PHASE: Readers<RemPhaseSettings> = {
  enabled: boolean,
  lookbackDays: count,
  limit: count,
  minPatternStrength: fraction,
};

const DEEP_PHASE: Readers<DeepPhaseSettings> = {
  enabled: boolean,
  limit: count,
  minScore: fraction,
  minRecallCount: count,
  minUniqueQueries: count,
  // OpenClaw takes 0 here; a half-life of 0 days has no meaning, and Lucid's reader refuses it.
  recencyHalfLifeDays: positiveInteger,
  maxAgeDays(value) {
    if (value === null) {
      return { problem: "means unset to OpenClaw (30 days), while in Lucid null means no limit" };
    }
    return positiveInteger(value);
  },
  maxPromotedSnippetTokens: positiveInteger,
  // OpenClaw clamps this one into [0, 1] rather than replacing it.
  maxPriorEntryLossFraction(value) {
    const number = numberOf(value);
    return number === undefined
      ? { problem: "is not a number" }
      : { value: Math.min(1, Math.max(0, number)) };
  },
};

/**
 * The keys of `source` that `readers` know, converted; the others are reported as not used, except
 * those in `skip` (read by the caller). A bad value is reported with the default that applies.
 */
function readFields<T>(
  source: Json,
  path: string,
  readers: Readers<T>,
  defaults: Partial<T>,
  ignored: IgnoredSetting[],
  skip: Readonly<Record<string, true>> = {},
): Partial<T> {
  const read: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(source)) {
    if (skip[name]) continue;
    const key = `${path}.${name}`;
    const reader = Object.hasOwn(readers, name) ? (readers[name as keyof T] as Reader<unknown>) : undefined;
    if (reader === undefined) {
      ignored.push({ key, reason: NOT_USED });
      continue;
    }
    const result = reader(value);
    if ("value" in result) {
      read[name] = result.value;
      continue;
    }
    const fallback = defaults[name as keyof T];
    ignored.push({
      key,
      reason: `${describe(value)} ${result.problem}; ${fallback === undefined ? "left unset" : `Lucid's default (${JSON.stringify(fallback)}) applies`}`,
    });
  }
  return read as Partial<T>;
}

/** `name` of `parent` when it is an object; anything else there is reported and left out. */
function section(parent: Json, name: string, path: string, ignored: IgnoredSetting[]): Json | undefined {
  const value = parent[name];
  if (value === undefined) return undefined;
  if (isObject(value)) return value;
  ignored.push({
    key: `${path}.${name}`,
    reason: `${describe(value)} is not an object; Lucid's defaults apply`,
  });
  return undefined;
}

function phase<T>(
  phases: Json,
  name: string,
  readers: Readers<T>,
  defaults: T,
  ignored: IgnoredSetting[],
): Partial<T> | undefined {
  const source = section(phases, name, "dreaming.phases", ignored);
  return source === undefined
    ? undefined
    : nonEmpty(readFields(source, `dreaming.phases.${name}`, readers, defaults, ignored));
}

function readPhases(phases: Json, ignored: IgnoredSetting[]): NonNullable<SleepSettingsInput["phases"]> {
  for (const name of Object.keys(phases)) {
    if (!["light", "rem", "deep"].includes(name))
      ignored.push({ key: `dreaming.phases.${name}`, reason: NOT_USED });
  }
  const defaults = DEFAULT_SLEEP_SETTINGS.phases;
  return compact({
    light: phase(phases, "light", LIGHT_PHASE, defaults.light, ignored),
    rem: phase(phases, "rem", REM_PHASE, defaults.rem, ignored),
    deep: phase(phases, "deep", DEEP_PHASE, defaults.deep, ignored),
  });
}

/** OpenClaw's dreaming falls back to `agents.defaults.userTimezone` when it names no zone of its own. */
function userTimezone(root: Json, dreaming: Json, ignored: IgnoredSetting[]): string | undefined {
  const own = dreaming.timezone;
  if (typeof own === "string" && own.trim() !== "") return undefined;
  const zone = objectAt(root, ["agents", "defaults", "userTimezone"]);
  if (typeof zone !== "string" || zone.trim() === "") return undefined;
  if (isTimeZone(zone.trim())) return zone.trim();
  ignored.push({
    key: "agents.defaults.userTimezone",
    reason: `${describe(zone)} is not an IANA time zone such as "Europe/Paris"; left unset`,
  });
  return undefined;
}

/** The memory plugin OpenClaw reads dreaming from: `plugins.slots.memory`, else memory-core. */
function memoryPluginId(root: Json): string {
  const slot = objectAt(root, ["plugins", "slots", "memory"]);
  return typeof slot === "string" && slot.trim() !== "" && slot.trim().toLowerCase() !== "none"
    ? slot.trim()
    : "memory-core";
}

function objectAt(root: Json, path: readonly string[]): unknown {
  let value: unknown = root;
  for (const name of path) {
    if (!isObject(value)) return undefined;
    value = value[name];
  }
  return value;
}

/**
 * OpenClaw's file is JSON5 in the wild: plain JSON is read as it is; otherwise `//` and `/* *\/`
 * comments and trailing commas are removed (outside strings) before a second try.
 */
function parseConfigText(text: string, file: string): Json {
  const source = text.replace(/^\uFEFF/u, "");
  let parsed: unknown;
  try {
    parsed = JSON.parse(source);
  } catch (error) {
    try {
      parsed = JSON.parse(withoutTrailingCommas(withoutComments(source)));
    } catch {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `${file} is not JSON (${(error as Error).message}). Comments and trailing commas are read; ` +
          "other JSON5 forms (unquoted keys, single quotes) are not: quote them.",
        { cause: error },
      );
    }
  }
  if (!isObject(parsed)) {
    throw new LucidError("INVALID_ARGUMENT", `${file} must hold an object, got ${describe(parsed)}.`);
  }
  return parsed;
}

// A string literal is matched first and kept, so `//` or `,}` inside one is left alone.
const COMMENT = /("(?:[^"\\]|\\.)*")|\/\/[^\n]*|\/\*[\s\S]*?\*\//gu;
const TRAILING_COMMA = /("(?:[^"\\]|\\.)*")|,(\s*[}\]])/gu;

function withoutComments(text: string): string {
  // A comment becomes a space: `1/* x */2` must not become `12`.
  return text.replace(COMMENT, (_, literal: string | undefined) => literal ?? " ");
}

function withoutTrailingCommas(text: string): string {
  return text.replace(
    TRAILING_COMMA,
    (_, literal: string | undefined, closing: string) => literal ?? closing,
  );
}

function isObject(value: unknown): value is Json {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function compact<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}

function nonEmpty<T extends object>(value: T): T | undefined {
  return Object.keys(value).length === 0 ? undefined : value;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return JSON.stringify(value);
}
