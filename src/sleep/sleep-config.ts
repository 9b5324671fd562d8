/**
 * Sleep's settings (`openclaw-dreaming.md` §2), as `lucid.config.json` `sleep` holds them: OpenClaw's
 * keys and defaults, so a user coming from OpenClaw's `plugins.entries.memory-core.config.dreaming`
 * finds the same names. Unlike OpenClaw, an invalid value is an error naming the key, never a silent
 * fallback (`config-schema.ts` reads and checks them; this module holds the shape and the defaults).
 *
 * @module
 */

import { createRequire } from "node:module";
import type { Cron } from "croner";

// croner is loaded only to check an expression a config gives: every command reads the config,
// and the parser would add ~7 ms to each one's start.
const require = createRequire(import.meta.url);

export const STORAGE_MODES = ["inline", "separate", "both"] as const;
export type StorageMode = (typeof STORAGE_MODES)[number];

export interface LightPhaseSettings {
  readonly enabled: boolean;
  /** Days back from the sweep whose recalls the light phase stages. */
  readonly lookbackDays: number;
  /** Most candidates staged a sweep. */
  readonly limit: number;
  /** Two entries of one note at least this similar are staged once. */
  readonly dedupeSimilarity: number;
}

export interface RemPhaseSettings {
  readonly enabled: boolean;
  readonly lookbackDays: number;
  /** Most reflections a sweep. */
  readonly limit: number;
  /** Least strength (share of entries carrying a concept tag, ×2) for a reflection. */
  readonly minPatternStrength: number;
}

export interface DeepPhaseSettings {
  readonly enabled: boolean;
  /** Most ranges promoted a sweep; 0 skips promotion. */
  readonly limit: number;
  readonly minScore: number;
  readonly minRecallCount: number;
  readonly minUniqueQueries: number;
  readonly recencyHalfLifeDays: number;
  /** Most days since the last recall; null for no limit. */
  readonly maxAgeDays: number | null;
  /** At 4 characters a token, the visible length of a promoted snippet (160 → 640 characters). */
  readonly maxPromotedSnippetTokens: number;
  /** How much of the generated sections' text a compaction may drop, 0–1. */
  readonly maxPriorEntryLossFraction: number;
}

export interface SleepSettings {
  /** Run the sweep on `frequency` in the background of `lucid mcp` (the CLI's `--every` needs nothing). */
  readonly enabled: boolean;
  /** The workspace; unset: `--workspace`, else `~/.openclaw/workspace` when it exists. */
  readonly workspace?: string;
  /** One cron expression (five fields) for the whole sweep. */
  readonly frequency: string;
  /** IANA zone of day buckets, file dates and the schedule; unset: the config's `timeZone`, else UTC. */
  readonly timezone?: string;
  readonly storage: {
    /** `inline`: managed blocks in the day's note; `separate`: `memory/dreaming/<phase>/DAY.md`; `both`. */
    readonly mode: StorageMode;
    /** Also write the separate report files when the mode is `inline`. */
    readonly separateReports: boolean;
  };
  readonly phases: {
    readonly light: LightPhaseSettings;
    readonly rem: RemPhaseSettings;
    readonly deep: DeepPhaseSettings;
  };
}

/** OpenClaw's newest defaults (`storage.mode` "separate", `minScore` 0.75), except `enabled`. */
export const DEFAULT_SLEEP_SETTINGS: SleepSettings = Object.freeze({
  enabled: false,
  frequency: "0 3 * * *",
  storage: Object.freeze({ mode: "separate" as const, separateReports: false }),
  phases: Object.freeze({
    light: Object.freeze({ enabled: true, lookbackDays: 2, limit: 100, dedupeSimilarity: 0.9 }),
    rem: Object.freeze({ enabled: true, lookbackDays: 7, limit: 10, minPatternStrength: 0.75 }),
    deep: Object.freeze({
      enabled: true,
      limit: 10,
      minScore: 0.75,
      minRecallCount: 3,
      minUniqueQueries: 3,
      recencyHalfLifeDays: 14,
      maxAgeDays: 30,
      maxPromotedSnippetTokens: 160,
      maxPriorEntryLossFraction: 0.25,
    }),
  }),
});

/** A partial `sleep` section (as the config file may give it) over the defaults. */
export interface SleepSettingsInput {
  readonly enabled?: boolean;
  readonly workspace?: string;
  readonly frequency?: string;
  readonly timezone?: string;
  readonly storage?: Partial<SleepSettings["storage"]>;
  readonly phases?: {
    readonly light?: Partial<LightPhaseSettings>;
    readonly rem?: Partial<RemPhaseSettings>;
    readonly deep?: Partial<DeepPhaseSettings>;
  };
}

/** The settings `input` gives, every missing key at its default. */
export function resolveSleepSettings(input: SleepSettingsInput = {}): SleepSettings {
  const base = DEFAULT_SLEEP_SETTINGS;
  const phases = input.phases ?? {};
  const { enabled, workspace, frequency, timezone } = input;
  return {
    ...base,
    ...defined({ enabled, workspace, frequency, timezone }),
    storage: { ...base.storage, ...defined(input.storage) },
    phases: {
      light: { ...base.phases.light, ...defined(phases.light) },
      rem: { ...base.phases.rem, ...defined(phases.rem) },
      deep: { ...base.phases.deep, ...defined(phases.deep) },
    },
  };
}

/** `value` without its undefined fields: `{ minScore: undefined }` keeps the default, not undefined. */
function defined<T extends object>(value: T | undefined): Partial<T> {
  if (value === undefined) return {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/**
 * What is wrong with a cron expression, or undefined when the schedule's parser (croner) reads it
 * as 5 fields (or 6 with seconds first) that match some date.
 *
 * @example
 * cronShapeProblem("0 3 * * *"); // undefined
 * cronShapeProblem("0 3 * *"); // "has 4 fields, not 5 (minute hour day-of-month month day-of-week) or 6 (seconds first)"
 */
export function cronShapeProblem(expression: string): string | undefined {
  const fields = expression.trim().split(/\s+/u);
  if (fields.length !== 5 && fields.length !== 6) {
    return `has ${fields.length} field${fields.length === 1 ? "" : "s"}, not 5 (minute hour day-of-month month day-of-week) or 6 (seconds first)`;
  }
  // The schedule's own parser (croner) judges the rest, so the config accepts what `--every` does.
  let cron: Cron;
  try {
    const { Cron: Parser } = require("croner") as typeof import("croner");
    cron = new Parser(fields.join(" "), { mode: "5-or-6-parts", paused: true });
  } catch (error) {
    return `is not a cron expression croner reads (${error instanceof Error ? error.message : String(error)})`;
  }
  return cron.nextRun(new Date()) === null ? "never matches a date (such as 31 February)" : undefined;
}
