/**
 * The `sleep` section of `lucid.config.json`, through the CLI: every key of OpenClaw's dreaming is
 * checked (a bad value is an error naming the key, exit 1, never a silent default), and
 * `lucid sleep import-openclaw --config openclaw.json` merges OpenClaw's settings into the file,
 * which then loads.
 */
import { lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli, runJson, tempHomes } from "./run-cli.js";

const newHome = tempHomes();

function writeConfig(home: string, config: unknown): string {
  mkdirSync(home, { recursive: true });
  const file = join(home, "lucid.config.json");
  writeFileSync(file, JSON.stringify(config, null, 2));
  return file;
}

/** ~/.openclaw/openclaw.json as OpenClaw users have it: JSON5-ish, with lenient values. */
const OPENCLAW_CONFIG = `{
  // written by \`openclaw onboard\`, then edited by hand
  "agents": { "defaults": { "workspace": "~/.openclaw/workspace", "userTimezone": "Europe/Paris" } },
  "plugins": {
    "entries": {
      "memory-core": {
        "enabled": true,
        "config": {
          "dreaming": {
            "enabled": "true",
            "frequency": "15 4 * * *",
            "model": "openai/gpt-5-mini",
            "storage": { "mode": "inline", },
            "phases": {
              "deep": { "minScore": "0.8", "maxAgeDays": 0, "sources": ["daily", "recall"] },
            },
          },
        },
      },
    },
  },
}
`;

describe("sleep in lucid.config.json", () => {
  it("still loads a config with only sleep.workspace", async () => {
    const home = newHome();
    writeConfig(home, { sleep: { workspace: "~/notes" } });
    const { code, json } = await runJson(["config"], { home });
    expect(code).toBe(0);
    expect(json).toMatchObject({ ok: true, config: { sleep: { workspace: "~/notes" } } });
  });

  it("loads every key of the section as written", async () => {
    const home = newHome();
    const sleep = {
      $comment: "OpenClaw's dreaming keys",
      enabled: true,
      workspace: "notes",
      frequency: "0 30 3 * * mon-fri",
      timezone: "Europe/Paris",
      storage: { mode: "both", separateReports: true },
      phases: {
        light: { enabled: false, lookbackDays: 0, limit: 0, dedupeSimilarity: 1 },
        rem: { enabled: true, lookbackDays: 14, limit: 5, minPatternStrength: 0 },
        deep: {
          enabled: true,
          limit: 0,
          minScore: 0.8,
          minRecallCount: 2,
          minUniqueQueries: 0,
          recencyHalfLifeDays: 7.5,
          maxAgeDays: null,
          maxPromotedSnippetTokens: 200,
          maxPriorEntryLossFraction: 0,
        },
      },
    };
    writeConfig(home, { sleep });
    const { code, json } = await runJson(["config"], { home });
    expect(code).toBe(0);
    const { $comment: _, ...shown } = sleep;
    expect((json.config as { sleep: unknown }).sleep).toEqual(shown);
  });

  it.each([
    [
      { phases: { deep: { minScore: 1.5 } } },
      "sleep.phases.deep.minScore must be a number from 0 to 1, got 1.5.",
    ],
    [
      { phases: { deep: { minscore: 0.8 } } },
      "sleep.phases.deep.minscore is not a known key. Allowed here: enabled,",
    ],
    [{ phases: { dream: {} } }, "sleep.phases.dream is not a known key. Allowed here: light, rem, deep."],
    [{ enabled: "true" }, 'sleep.enabled must be true or false, got "true".'],
    [{ workspace: "" }, 'sleep.workspace must be a non-empty string, got "".'],
    [{ frequency: "0 3 * *" }, 'sleep.frequency must be a cron expression such as "0 3 * * *"'],
    [{ frequency: "0 3am * * *" }, "is not a cron expression croner reads"],
    [{ frequency: "61 3 * * *" }, "is not a cron expression croner reads"],
    [{ frequency: "0 3 31 2 *" }, "never matches a date (such as 31 February)"],
    [{ timezone: "Mars/Olympus" }, 'sleep.timezone must be an IANA time zone such as "UTC"'],
    [
      { storage: { mode: "archive" } },
      'sleep.storage.mode must be one of "inline", "separate", "both", got "archive".',
    ],
    [{ storage: "separate" }, 'sleep.storage must be an object, got "separate".'],
    [
      { phases: { light: { lookbackDays: 2.5 } } },
      "sleep.phases.light.lookbackDays must be an integer of 0 or more, got 2.5.",
    ],
    [{ phases: { rem: { limit: -1 } } }, "sleep.phases.rem.limit must be an integer of 0 or more, got -1."],
    [
      { phases: { deep: { recencyHalfLifeDays: 0 } } },
      "sleep.phases.deep.recencyHalfLifeDays must be a number greater than 0, got 0.",
    ],
    [
      { phases: { deep: { maxAgeDays: -1 } } },
      "sleep.phases.deep.maxAgeDays must be a number of 0 or more, or null for no limit, got -1.",
    ],
    [
      { phases: { deep: { maxPromotedSnippetTokens: 0 } } },
      "sleep.phases.deep.maxPromotedSnippetTokens must be a positive integer, got 0.",
    ],
    [
      { phases: { deep: { maxPriorEntryLossFraction: "0.25" } } },
      'sleep.phases.deep.maxPriorEntryLossFraction must be a number from 0 to 1, got "0.25".',
    ],
  ])("refuses sleep %j, naming the key", async (sleep, message) => {
    const home = newHome();
    const file = writeConfig(home, { sleep });
    const { code, stderr } = await runCli(["config"], { home });
    expect(code).toBe(1);
    expect(stderr).toContain(`error[INVALID_CONFIG]: ${file}: sleep.`);
    expect(stderr).toContain(message);
  });

  it("stops a sleep command on a bad value too, with the key in the --json error", async () => {
    const home = newHome();
    writeConfig(home, { sleep: { workspace: "ws", phases: { light: { dedupeSimilarity: 2 } } } });
    const { code, json } = await runJson(["sleep", "status"], { home });
    expect(code).toBe(1);
    expect(json).toMatchObject({ ok: false, error: { code: "INVALID_CONFIG" } });
    expect((json.error as { message: string }).message).toMatch(
      /sleep\.phases\.light\.dedupeSimilarity must be/,
    );
  });
});

describe("lucid sleep import-openclaw --config", () => {
  function openClawFile(home: string, text = OPENCLAW_CONFIG): string {
    mkdirSync(home, { recursive: true });
    const file = join(home, "openclaw.json");
    writeFileSync(file, text);
    return file;
  }

  it("merges OpenClaw's dreaming into sleep, keeps the rest of the file, and the result loads", async () => {
    const home = newHome();
    const existing = {
      $comment: "Lucid configuration.",
      embedder: { provider: "local" },
      defaults: { userId: "ana" },
      mcp: { token: { env: "LUCID_TEST_UNSET_TOKEN" } },
      sleep: { workspace: "~/notes", phases: { deep: { limit: 5, minScore: 0.9 } } },
    };
    const configFile = writeConfig(home, existing);
    const source = openClawFile(home);

    const imported = await runJson(
      ["sleep", "import-openclaw", "--config", source, "--workspace", join(home, "ws")],
      { home },
    );
    expect(imported.code, imported.stderr).toBe(0);
    expect(imported.json).toEqual({
      ok: true,
      configFile,
      set: [
        { key: "sleep.enabled", value: true },
        { key: "sleep.frequency", value: "15 4 * * *" },
        { key: "sleep.timezone", value: "Europe/Paris" },
        { key: "sleep.storage.mode", value: "inline" },
        { key: "sleep.phases.deep.minScore", value: 0.8 },
      ],
      ignored: [
        { key: "dreaming.model", reason: "not used by Lucid" },
        {
          key: "dreaming.phases.deep.maxAgeDays",
          reason: "0 is not a number of 1 or more; Lucid's default (30) applies",
        },
        { key: "dreaming.phases.deep.sources", reason: "not used by Lucid" },
      ],
    });

    const written = JSON.parse(readFileSync(configFile, "utf8"));
    expect(Object.keys(written)).toEqual(Object.keys(existing));
    expect(written).toEqual({
      ...existing,
      sleep: {
        workspace: "~/notes",
        phases: { deep: { limit: 5, minScore: 0.8 } },
        enabled: true,
        frequency: "15 4 * * *",
        timezone: "Europe/Paris",
        storage: { mode: "inline" },
      },
    });
    const loaded = await runJson(["config"], { home });
    expect(loaded.code).toBe(0);
    expect(loaded.json).toMatchObject({
      config: { sleep: written.sleep, mcp: { token: { env: "LUCID_TEST_UNSET_TOKEN" } } },
    });
  });

  it("fills the sleep section `lucid init` writes, keeping its $comment", async () => {
    const home = newHome();
    expect((await runJson(["init"], { home })).code).toBe(0);
    const configFile = join(home, "lucid.config.json");
    const initial = JSON.parse(readFileSync(configFile, "utf8"));
    expect(initial.sleep).toEqual({ $comment: expect.any(String), enabled: false });
    const source = openClawFile(home);
    const { code } = await runJson(["sleep", "import-openclaw", "--config", source, "--workspace", home], {
      home,
    });
    expect(code).toBe(0);
    const written = JSON.parse(readFileSync(configFile, "utf8"));
    expect(Object.keys(written)).toEqual(Object.keys(initial));
    expect(written.sleep).toMatchObject({
      $comment: initial.sleep.$comment,
      enabled: true,
      frequency: "15 4 * * *",
    });
    expect((await runJson(["config"], { home })).json).toMatchObject({
      config: { sleep: { enabled: true } },
    });
  });

  it("prints what it set and what it ignored", async () => {
    const home = newHome();
    const source = openClawFile(home);
    const configFile = join(home, "lucid.config.json");
    const { code, stdout } = await runCli(
      ["sleep", "import-openclaw", "--config", source, "--workspace", join(home, "ws")],
      { home },
    );
    expect(code).toBe(0);
    expect(stdout).toBe(
      [
        `Set 5 keys in ${configFile} from ${source}:`,
        "  sleep.enabled = true",
        '  sleep.frequency = "15 4 * * *"',
        '  sleep.timezone = "Europe/Paris"',
        '  sleep.storage.mode = "inline"',
        "  sleep.phases.deep.minScore = 0.8",
        "Ignored 3 keys of OpenClaw's config:",
        "  dreaming.model: not used by Lucid",
        "  dreaming.phases.deep.maxAgeDays: 0 is not a number of 1 or more; Lucid's default (30) applies",
        "  dreaming.phases.deep.sources: not used by Lucid",
        "",
      ].join("\n"),
    );
    // A home without a config gets one holding just the section.
    expect(JSON.parse(readFileSync(configFile, "utf8"))).toEqual({
      sleep: {
        enabled: true,
        frequency: "15 4 * * *",
        timezone: "Europe/Paris",
        storage: { mode: "inline" },
        phases: { deep: { minScore: 0.8 } },
      },
    });
    expect((await runCli(["config"], { home })).code).toBe(0);
  });

  it("keeps the file's mode and indent", async () => {
    const home = newHome();
    mkdirSync(home, { recursive: true });
    const configFile = join(home, "lucid.config.json");
    writeFileSync(
      configFile,
      JSON.stringify({ llm: { provider: "anthropic", model: "m", apiKey: "k" } }, null, 4),
      {
        mode: 0o600,
      },
    );
    const source = openClawFile(home);
    const { code } = await runCli(["sleep", "import-openclaw", "--config", source, "--workspace", home], {
      home,
    });
    expect(code).toBe(0);
    expect(statSync(configFile).mode & 0o777).toBe(0o600);
    expect(readFileSync(configFile, "utf8")).toMatch(/^{\n {4}"llm": {\n {8}"provider"/);
  });

  it("writes through a lucid.config.json that is a link, leaving the link", async () => {
    const home = newHome();
    mkdirSync(join(home, "dotfiles"), { recursive: true });
    const real = join(home, "dotfiles", "lucid.config.json");
    writeFileSync(real, JSON.stringify({ timeZone: "UTC" }));
    symlinkSync(real, join(home, "lucid.config.json"));
    const { code, stderr } = await runCli(
      ["sleep", "import-openclaw", "--config", openClawFile(home), "--workspace", home],
      { home },
    );
    expect(code, stderr).toBe(0);
    expect(lstatSync(join(home, "lucid.config.json")).isSymbolicLink()).toBe(true);
    const written = JSON.parse(readFileSync(real, "utf8")) as { timeZone: string; sleep?: unknown };
    expect(written.timeZone).toBe("UTC");
    expect(written.sleep).toBeDefined();
  });

  it("refuses an OpenClaw file without dreaming settings, and writes nothing", async () => {
    const home = newHome();
    const configFile = writeConfig(home, { sleep: { workspace: "~/notes" } });
    const before = readFileSync(configFile, "utf8");
    const source = openClawFile(home, '{ "plugins": { "entries": { "memory-core": { "enabled": true } } } }');
    const { code, json } = await runJson(["sleep", "import-openclaw", "--config", source], { home });
    expect(code).toBe(1);
    expect(json).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT" } });
    expect((json.error as { message: string }).message).toContain(
      "plugins.entries.memory-core.config.dreaming",
    );
    expect(readFileSync(configFile, "utf8")).toBe(before);
  });

  it("refuses to write over a lucid.config.json that does not load, naming its bad key", async () => {
    const home = newHome();
    const configFile = writeConfig(home, {
      sleep: { workspace: "~/notes", phases: { deep: { minScore: 2 } } },
    });
    const before = readFileSync(configFile, "utf8");
    const source = openClawFile(home);
    const { code, stderr } = await runCli(["sleep", "import-openclaw", "--config", source], { home });
    expect(code).toBe(1);
    expect(stderr).toContain(
      `${configFile}: sleep.phases.deep.minScore must be a number from 0 to 1, got 2.`,
    );
    expect(readFileSync(configFile, "utf8")).toBe(before);
  });

  it("takes --config or --file, not both", async () => {
    const home = newHome();
    const source = openClawFile(home);
    const { code, stderr } = await runCli(
      ["sleep", "import-openclaw", "--config", source, "--file", source, "--workspace", home],
      { home },
    );
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error\[USAGE\]: import-openclaw takes --config/);
  });
});
