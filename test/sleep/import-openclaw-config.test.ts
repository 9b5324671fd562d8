/**
 * OpenClaw's dreaming settings read into Lucid's `sleep` section, from config texts as OpenClaw users
 * have them: JSON5-ish (comments, trailing commas), lenient values ("true", "3"), and values OpenClaw
 * silently replaces by its defaults — which here are reported, never dropped without a word.
 */
import { describe, expect, it } from "vitest";
import { validateConfig } from "../../src/config/config-schema.js";
import { isLucidError } from "../../src/errors.js";
import { NOT_USED, openClawDreamingSettings } from "../../src/sleep/import-openclaw-config.js";
import { resolveSleepSettings } from "../../src/sleep/sleep-config.js";

/** ~/.openclaw/openclaw.json as a person edits it by hand: comments, trailing commas, a URL in a string. */
const HAND_EDITED = `// OpenClaw config (JSON5). Edited by hand, see https://docs.openclaw.ai/gateway/configuration
{
  "meta": { "lastTouchedVersion": "2026.4.12" },
  "agents": {
    "defaults": {
      "workspace": "~/.openclaw/workspace",
      "userTimezone": "America/New_York",
      "model": { "primary": "anthropic/claude-sonnet-4-5" },
    },
  },
  "gateway": { "port": 18789, "bind": "loopback" },
  /* memory-core is the default memory slot */
  "plugins": {
    "entries": {
      "memory-core": {
        "enabled": true,
        "config": {
          "dreaming": {
            "enabled": true,
            "frequency": "30 2 * * *", // after the nightly backup
            "timezone": "Europe/Berlin",
            "model": "anthropic/claude-haiku-4-5",
            "verboseLogging": "false",
            "storage": { "mode": "Both", "separateReports": "true" },
            "phases": {
              "light": { "lookbackDays": "3", "limit": 50, "sources": ["daily", "recall"] },
              "rem": { "enabled": false, "minPatternStrength": 0.6, },
              "deep": {
                "limit": 0,
                "minScore": 0.8,
                "minRecallCount": "4",
                "minUniqueQueries": 2.9,
                "maxAgeDays": 45,
                "maxPriorEntryLossFraction": 1.5,
                "recovery": { "enabled": false, "triggerBelowHealth": 0.3 },
                "cron": "0 3 * * *",
              },
            },
          },
        },
      },
      "telegram": { "enabled": true, "config": { "note": "a, } and // in a string stay" } },
    },
  },
}
`;

/** The same file's `dreaming` wrapped in the path OpenClaw reads it from. */
function openClawConfig(dreaming: unknown, extra: Record<string, unknown> = {}): string {
  return JSON.stringify(
    { ...extra, plugins: { entries: { "memory-core": { enabled: true, config: { dreaming } } } } },
    null,
    2,
  );
}

function thrown(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

describe("openClawDreamingSettings", () => {
  it("reads a hand-edited JSON5 config: converts the lenient forms, reports every key it leaves out", () => {
    const { settings, ignored } = openClawDreamingSettings(HAND_EDITED);
    expect(settings).toEqual({
      enabled: true,
      frequency: "30 2 * * *",
      timezone: "Europe/Berlin",
      storage: { mode: "both", separateReports: true },
      phases: {
        light: { lookbackDays: 3, limit: 50 },
        rem: { enabled: false, minPatternStrength: 0.6 },
        // OpenClaw floors counts and clamps the loss fraction; limit 0 is a real value (no promotion).
        deep: {
          limit: 0,
          minScore: 0.8,
          minRecallCount: 4,
          minUniqueQueries: 2,
          maxAgeDays: 45,
          maxPriorEntryLossFraction: 1,
        },
      },
    });
    expect(ignored).toEqual([
      { key: "dreaming.model", reason: NOT_USED },
      { key: "dreaming.verboseLogging", reason: NOT_USED },
      { key: "dreaming.phases.light.sources", reason: NOT_USED },
      { key: "dreaming.phases.deep.recovery", reason: NOT_USED },
      { key: "dreaming.phases.deep.cron", reason: NOT_USED },
    ]);
  });

  it("gives settings Lucid's config reader accepts", () => {
    const { settings } = openClawDreamingSettings(HAND_EDITED);
    const config = validateConfig({ sleep: settings }, "lucid.config.json");
    expect(config.sleep).toEqual(settings);
    expect(resolveSleepSettings(config.sleep).phases.deep).toMatchObject({
      enabled: true,
      limit: 0,
      minRecallCount: 4,
      recencyHalfLifeDays: 14,
      maxPromotedSnippetTokens: 160,
    });
  });

  it("reports the values OpenClaw silently replaces by its defaults, and leaves them out", () => {
    // dreaming.test.ts: empty, blank or negative thresholds resolve to the defaults.
    const { settings, ignored } = openClawDreamingSettings(
      openClawConfig({
        enabled: "yes",
        frequency: "",
        storage: { mode: "archive", separateReports: 1 },
        phases: {
          light: { lookbackDays: -1, limit: "  ", dedupeSimilarity: 1.2 },
          rem: { lookbackDays: "a week" },
          deep: { minScore: "high", maxAgeDays: 0, maxPromotedSnippetTokens: -5, minRecallCount: 3 },
        },
      }),
    );
    expect(settings).toEqual({ phases: { deep: { minRecallCount: 3 } } });
    expect(ignored.map((entry) => entry.key)).toEqual([
      "dreaming.enabled",
      "dreaming.frequency",
      "dreaming.storage.mode",
      "dreaming.storage.separateReports",
      "dreaming.phases.light.lookbackDays",
      "dreaming.phases.light.limit",
      "dreaming.phases.light.dedupeSimilarity",
      "dreaming.phases.rem.lookbackDays",
      "dreaming.phases.deep.minScore",
      "dreaming.phases.deep.maxAgeDays",
      "dreaming.phases.deep.maxPromotedSnippetTokens",
    ]);
    const reason = (key: string) => ignored.find((entry) => entry.key === key)?.reason;
    expect(reason("dreaming.enabled")).toBe(`"yes" is not true or false; Lucid's default (false) applies`);
    expect(reason("dreaming.phases.light.dedupeSimilarity")).toBe(
      "1.2 is not a number from 0 to 1; Lucid's default (0.9) applies",
    );
    expect(reason("dreaming.storage.mode")).toMatch(
      /^"archive" is not one of "inline", "separate", "both"; .*"separate"/,
    );
    expect(reason("dreaming.phases.deep.maxAgeDays")).toMatch(/^0 .*\(30\) applies$/);
  });

  it("does not read OpenClaw's null maxAgeDays (its default, 30 days) as Lucid's null (no limit)", () => {
    const { settings, ignored } = openClawDreamingSettings(
      openClawConfig({ phases: { deep: { maxAgeDays: null } } }),
    );
    expect(settings).toEqual({});
    expect(ignored).toEqual([
      {
        key: "dreaming.phases.deep.maxAgeDays",
        reason: expect.stringMatching(/no limit; Lucid's default \(30\)/),
      },
    ]);
  });

  it("refuses what Lucid cannot take even where OpenClaw would: a bad cron, an unknown zone, a 0-day half-life", () => {
    const { settings, ignored } = openClawDreamingSettings(
      openClawConfig({
        frequency: "every night",
        timezone: "Mars/Olympus",
        phases: { deep: { recencyHalfLifeDays: 0 }, dream: { enabled: true } },
        maintenance: { enabled: true },
      }),
    );
    expect(settings).toEqual({});
    expect(ignored).toEqual([
      {
        key: "dreaming.frequency",
        reason: expect.stringMatching(/^"every night" is not a cron expression: it has 2 fields/),
      },
      {
        key: "dreaming.timezone",
        reason: expect.stringMatching(/^"Mars\/Olympus" is not an IANA time zone/),
      },
      { key: "dreaming.maintenance", reason: NOT_USED },
      { key: "dreaming.phases.dream", reason: NOT_USED },
      { key: "dreaming.phases.deep.recencyHalfLifeDays", reason: expect.stringContaining("(14) applies") },
    ]);
  });

  it("takes the zone from agents.defaults.userTimezone when dreaming names none, as OpenClaw does", () => {
    const text = openClawConfig({ enabled: false }, { agents: { defaults: { userTimezone: "Asia/Tokyo" } } });
    expect(openClawDreamingSettings(text).settings).toEqual({ enabled: false, timezone: "Asia/Tokyo" });
  });

  it("reads the dreaming of the plugin in plugins.slots.memory", () => {
    const text = JSON.stringify({
      plugins: {
        slots: { memory: "memory-lancedb" },
        entries: { "memory-lancedb": { config: { dreaming: { frequency: "0 4 * * 1-5" } } } },
      },
    });
    expect(openClawDreamingSettings(text).settings).toEqual({ frequency: "0 4 * * 1-5" });
  });

  it("says where it looked when the file has no dreaming section", () => {
    const error = thrown(() =>
      openClawDreamingSettings(
        JSON.stringify({ plugins: { entries: { "memory-core": { enabled: true } } } }),
        "openclaw.json",
      ),
    );
    expect(isLucidError(error, "INVALID_ARGUMENT")).toBe(true);
    expect((error as Error).message).toContain("plugins.entries.memory-core.config.dreaming");
    expect((error as Error).message).toContain("openclaw.json");
  });

  it("refuses a file that is not JSON even without its comments and trailing commas", () => {
    for (const text of ["{ plugins: { entries: {} } }", "[1, 2]", "not a config"]) {
      expect(
        isLucidError(
          thrown(() => openClawDreamingSettings(text)),
          "INVALID_ARGUMENT",
        ),
      ).toBe(true);
    }
  });
});
