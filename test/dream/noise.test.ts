import { describe, expect, it } from "vitest";
import { analyseNoise } from "../../src/dream/analyse/noise.js";
import { resolvePolicy } from "../../src/policy/resolve-policy.js";
import { snapshotOf } from "./make-snapshot.js";

const policy = await resolvePolicy();

function noiseRule(text: string, metadata: Record<string, unknown> = {}): string | undefined {
  const [action] = analyseNoise(snapshotOf([{ text, metadata }]), policy);
  return action?.why.rule;
}

describe("analyseNoise", () => {
  it.each([
    ["ok", "acknowledgement"],
    ["Got it, thanks!", "acknowledgement"],
    ["thank you so much", "acknowledgement"],
    ["Sounds good 👍", "acknowledgement"],
    ["👍", "acknowledgement"],
    ["will do", "acknowledgement"],
    ["Hi there!", "greeting"],
    ["Good morning", "greeting"],
    ["hey, how are you?", "greeting"],
    ["2026-11-30T09:15:00Z", "bare_timestamp"],
    ["Timestamp: Mon 30 Nov 2026 10:02 UTC", "bare_timestamp"],
    ["1732960000", "bare_timestamp"],
    ["November 30, 2026", "bare_timestamp"],
    ["HEARTBEAT_OK", "heartbeat"],
    ["NO_REPLY", "heartbeat"],
    ["heartbeat received, all systems ok", "heartbeat"],
    ["[cron] backup-db completed in 4.2s (exit 0)", "cron_record"],
    ["Cron job cleanup-tmp ran at 03:00, status: ok", "cron_record"],
    ["Scheduled task sync-calendar finished at 2026-11-30 06:00 with exit code 0", "cron_record"],
    ['{"status":"ok","items":[{"id":1},{"id":2}]}', "json_blob"],
    ["[1, 2, 3]", "json_blob"],
    [
      "TypeError: cannot read x\n    at parse (src/parser.ts:12:5)\n    at main (src/index.ts:3:1)",
      "stack_trace",
    ],
    [
      'Traceback (most recent call last):\n  File "app.py", line 3, in <module>\nKeyError: "id"',
      "stack_trace",
    ],
    [
      "$ ls -la\ntotal 8\ndrwxr-xr-x 2 sam sam 4096 Nov 30 .\n-rw-r--r-- 1 sam sam 12 Nov 30 a.txt",
      "shell_output",
    ],
    ["README.md\nsrc\npackage.json\ntsconfig.json", "shell_output"],
    ["On branch main\nYour branch is up to date with 'origin/main'.\nnothing to commit", "shell_output"],
    [
      "2026-11-30T10:00:01Z INFO server started\n2026-11-30T10:00:02Z ERROR db connection refused",
      "log_output",
    ],
    ["Health check probe — safe to delete.", "health_probe"],
  ])("deletes %j as %s", (text, rule) => {
    expect(noiseRule(text)).toBe(rule);
  });

  it("reads Mem0's health-probe metadata", () => {
    expect(noiseRule("probe", { type: "health_check", probe: true })).toBe("health_probe");
  });

  it.each([
    "Sure, the user prefers Postgres for new services",
    "OK is the name of the user's favourite band",
    "User says thanks are unnecessary in code reviews",
    "The nightly backup cron job failed last week because the disk was full",
    "User wants the cleanup job to run at 02:00 every night",
    "The deploy pipeline takes 12 minutes on average",
    "User was born on 1990-04-12",
    "Meeting with Priya moved to 2026-12-03 at 10:00",
    'User\'s Prettier config is {"semi": false, "singleQuote": true}',
    "User fixed the TypeError in src/parser.ts by checking for null",
    "Run `npm run build` before committing",
    "User's dog is called Biscuit",
    "No meat: the user is vegetarian",
    "Good coffee matters to the user: they grind beans every morning",
  ])("leaves %j alone", (text) => {
    expect(noiseRule(text)).toBeUndefined();
  });
});
