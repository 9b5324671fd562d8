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
    ["===== 12 passed, 1 failed in 3.21s =====", "test_report"],
    ["Tests:       3 failed, 12 passed, 15 total", "test_report"],
    ["ok  \tgithub.com/acme/api\t0.012s", "test_report"],
    ["--- FAIL: TestLogin (0.00s)", "test_report"],
    ["test result: ok. 12 passed; 0 failed; 0 ignored", "test_report"],
    ["  12 passing (45ms)\n  1 failing", "test_report"],
    ["tests/test_api.py::test_login PASSED\ntests/test_api.py::test_logout FAILED", "test_report"],
    ["Step 3/9 : RUN npm ci\n ---> Running in 4f2a", "build_output"],
    ["BUILD SUCCESSFUL in 12s\n7 actionable tasks: 7 executed", "build_output"],
    [
      "   Compiling serde v1.0.190\n    Finished `release` profile [optimized] target(s) in 9.41s",
      "build_output",
    ],
    ["src/app.ts(12,5): error TS2345: Argument of type 'string' is not assignable", "build_output"],
    [
      "+-----------------------------------------------------------------------------+\n| NVIDIA-SMI 535.104.05   Driver Version: 535.104.05   CUDA Version: 12.2     |\n|-------------------------------+----------------------+----------------------+",
      "table_output",
    ],
    ["+----+-------+\n| id | name  |\n+----+-------+\n|  1 | alice |\n+----+-------+", "table_output"],
    ['Tool call: read_file({"path": "src/index.ts"})', "tool_trace"],
    ["<tool_call>search_memories</tool_call>", "tool_trace"],
    ["User said hi", "reported_chatter"],
    ["The user greeted the assistant.", "reported_chatter"],
    ["User thanked the assistant for the help", "reported_chatter"],
    ["User asked what time it is", "reported_chatter"],
    ["asdf", "fragment"],
    ["Kubernetes", "fragment"],
    // New examples of each shape the issue names, none from a corpus.
    ["[cron] 2026-11-28 04:30:02 weekly-report exited 0 (12s)", "cron_record"],
    ["Dec 01 04:00:01 nas CRON[4412]: (backup) CMD (/opt/bin/rotate-logs)", "machine_line"],
    ["POST /api/orders 201 Created 48ms", "machine_line"],
    ["sync worker 2026-11-29T06:00:00Z state=idle queue=0", "machine_line"],
    ['github.search_issues(q="flaky") -> 4 issues', "machine_line"],
    ['→ fetch_weather(city="Oslo") ← 1 result (0.3s)', "machine_line"],
    ["Epoch 12/50 - loss: 0.2104 - val_loss: 0.2377 - accuracy: 0.9312", "machine_line"],
    ["Successfully installed requests-2.32.3 urllib3-2.2.2", "build_output"],
    [" sku  | qty\n------+-----\n A-12 |   4\n B-07 |  19\n(2 rows)", "table_output"],
    ["User said goodnight", "reported_chatter"],
    ["User greeted the assistant and asked how it was doing.", "reported_chatter"],
    ["The user thanked the assistant for the packing list.", "reported_chatter"],
    ["User asked what time it is in Lisbon.", "reported_chatter"],
    ["User asked what the weather is like today.", "reported_chatter"],
    ["User said thanks and bye.", "reported_chatter"],
    ["User said hola.", "reported_chatter"],
    ["okkk", "acknowledgement"],
    ["2026-11-24 14:02:11,523 - INFO - loader - Loading cached shards at /data/cache", "machine_line"],
    [
      "[Tue Nov 24 11:02:17.332841 2026] [core:warn] [pid 1823] AH00045: child process still running",
      "machine_line",
    ],
    [
      "Reading package lists... Done\nBuilding dependency tree... Done\n0 upgraded, 0 newly installed, 0 to remove.",
      "tool_text",
    ],
    ["Mem:  15Gi   9.1Gi   1.2Gi\nSwap:  2.0Gi   0B   2.0Gi", "tool_text"],
    ["Installing Flask (3.0.3)\nInstalling Jinja2 (3.1.4)\nWriting lock file", "tool_text"],
    ["User asked today's date.", "reported_chatter"],
    ["danke dir", "acknowledgement"],
    ["Guten Morgen!", "greeting"],
    ["User said good morning to the assistant.", "reported_chatter"],
    ["Session started", "chatter_event"],
    ["User was silent.", "chatter_event"],
    ["Assistant: Is there anything else I can help you with today?", "chatter_event"],
    ["qwerty;;", "fragment"],
    ["cron: weekly-digest OK (4.0s)", "cron_record"],
    ["Okay, that makes sense now", "acknowledgement"],
    ["Great, let's do it", "acknowledgement"],
    [
      "<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>",
      "markup_page",
    ],
    ['calling tool get_time({"tz":"UTC"}) -> {"time":"09:00"}', "tool_trace"],
    ["weights.bin: 100%|██████████| 1.2G/1.2G [00:31<00:00, 38.7MB/s]", "machine_line"],
    ["** TEST FAILED **", "build_output"],
    ["✨  Done in 3.02s.", "build_output"],
    ["Found 3 errors in 2 files (checked 40 source files)", "build_output"],
    ["12 examples, 1 failure", "test_report"],
    ["Failed: 2, Passed: 40, Skipped: 1, Total: 43", "test_report"],
    [
      "Thought: I need the row count.\nAction: run_query\nAction Input: SELECT count(*) FROM t\nObservation: 42",
      "tool_trace",
    ],
    [
      "PHP Fatal error:  Uncaught Error in /srv/app/a.php:9\nStack trace:\n#0 /srv/app/b.php(12): run()\n#1 {main}",
      "stack_trace",
    ],
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
    "CI runs pytest with -x and --maxfail=1",
    "The user wants every test to pass before a merge: 0 failed is the bar",
    "The build takes 12s on CI",
    "User said they prefer Postgres for new services",
    "Alice thanked Bob for fixing the flaky build",
    "User asked the assistant to always answer in British English",
    "| day | gym |\n|-----|-----|\n| Mon | legs |",
    "Use the read_file tool for anything under src/",
    "Poppy is a dog",
    "The health check calls GET /healthz and expects 200",
    "User wants the nightly-export job to retry twice when it fails",
    "Ben thanks people by sending handwritten cards",
    "The API returns 429 when a client sends more than 60 requests a minute",
    "Training stops early when val_loss has not improved for 5 epochs",
    "User installs Python packages with uv, never pip",
    "User asked the assistant for a packing list for Iceland, and wants it in Markdown",
    "User's .gitconfig:\n[user]\n  name = Sam Lee\n  email = sam@example.com",
    "Getting the kids ready takes 40 minutes.\nSchool starts at 8:30.",
    "- User likes Rust\n- User uses Neovim\n- User lives in Leeds",
    "2026-11-24: User decided to move the standup to 10:00",
    "User greets the team in Slack every morning at 9",
    "User asked to always be told today's date at the start of a chat",
    "The CI job should fail when mypy finds errors",
    "User's rule: no deploy unless Failed: 0 in the test summary",
    "The session started at 9 and the user wants a summary at the end",
    "Assistant: User prefers answers in Spanish.",
    "User says gracias to the barista every morning in Madrid",
    "<p>User's email signature: <b>Sam Lee</b>, Head of Platform at Acme, with the phone number and a link to the careers page and the blog</p>",
    "Let's use Postgres for the new service, the user decided",
    "cron: the user wants the nightly job at 02:00",
  ])("leaves %j alone", (text) => {
    expect(noiseRule(text)).toBeUndefined();
  });
});
