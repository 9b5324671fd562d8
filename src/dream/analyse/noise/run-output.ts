/**
 * What a tool run prints, pasted as a memory: test-runner summaries (pytest, go test, Jest, Vitest,
 * cargo, mocha), build logs (Docker, Gradle, Maven, cargo, webpack, tsc), box-drawn tables
 * (nvidia-smi, psql, mysql) and traces of an agent's tool calls. Each says how one run went, not
 * a fact to keep; a memory that states what someone wants or decided about the run ("CI should
 * run pytest with -x") is left alone.
 *
 * @module
 */

import { linesOf, type NoiseRule } from "./noise-rule.js";

// "12 passed, 1 failed in 3.21s", "Tests: 3 failed, 12 passed, 15 total", "test result: ok. 12
// passed; 0 failed", "12 passing (45ms)", "Test Files  3 passed (3)".
const COUNT = String.raw`\d+ (?:passed|failed|passing|failing|pending|skipped|errors?|xfailed|xpassed|deselected|warnings?|examples?|failures?)\b`;
const COUNTS = String.raw`\b${COUNT}`;
const TEST_SUMMARY = new RegExp(
  [
    `^=+ .*${COUNTS}.* =+$`,
    String.raw`^\s*(?:Tests|Test Suites|Test Files|Snapshots):\s+${COUNT}`,
    String.raw`^\s*(?:Tests|Test Files)\s+\d+ (?:passed|failed)`,
    String.raw`^test result: (?:ok|FAILED)\. \d+ passed`,
    String.raw`^\s*\d+ (?:passing|failing|pending) \(\d+(?:\.\d+)?m?s\)`,
    String.raw`${COUNTS}(?:, ${COUNT})* in \d+(?:\.\d+)?s\b`,
    String.raw`^collected \d+ items?\b`,
    // unittest's last lines, and a runner's one-line tally: "Ran 14 tests in 0.021s", "✓ 42 tests passed".
    String.raw`^Ran \d+ tests? in \d+(?:\.\d+)?s$`,
    String.raw`^\s*[✓✔✗✖×]?\s*\d+ tests? (?:passed|failed|skipped)\b`,
    // Counters as fields, in any order: "Passed!  - Failed: 0, Passed: 118, Skipped: 3, Total: 121".
    String.raw`\b(?:[Pp]assed|[Ff]ailed|[Ss]kipped|[Tt]otal|[Ee]rrors?)\s*[:=]\s*\d+\b.*\b(?:[Pp]assed|[Ff]ailed|[Ss]kipped|[Tt]otal|[Ee]rrors?)\s*[:=]\s*\d+`,
    // RSpec and minitest: "37 examples, 2 failures", "12 runs, 30 assertions, 0 failures".
    String.raw`^\d+ (?:examples?|runs?|tests?), \d+ (?:failures?|assertions?)\b`,
  ].join("|"),
  "mu",
);
// go test: "ok  \tgithub.com/acme/api\t0.012s", "--- FAIL: TestLogin (0.00s)", "FAIL\tgithub.com/…".
const GO_TEST =
  /^(?:ok|FAIL|---\s(?:PASS|FAIL|SKIP):)\s+\S+\s+(?:\S+\s+)?(?:\(?\d+(?:\.\d+)?s\)?|\(cached\))$/mu;
const TEST_LINE =
  /^(?:PASS|FAIL)\s+\S+\.(?:test|spec)\.[cm]?[jt]sx?\b|^\S+::\S+ (?:PASSED|FAILED|ERROR|SKIPPED)\b|^(?:FAILED|ERROR) \S+::\S+/mu;

const BUILD_LINE = new RegExp(
  [
    String.raw`^Step \d+/\d+ : `,
    // cargo, make and go's own lines.
    String.raw`^error: could not compile \S+`,
    String.raw`^(?:warning|error)\[[A-Z]\d{4}\]: `,
    String.raw`^\s*--> \S+:\d+:\d+$`,
    String.raw`^make(?:\[\d+\])?: \*\*\* `,
    String.raw`^go: (?:downloading|finding|extracting) \S+ v\d`,
    String.raw`^#\d+ \[(?:[\w-]+ )?\d+/\d+\] `,
    String.raw`^BUILD (?:SUCCESSFUL|FAILED) in \d`,
    String.raw`^\[(?:INFO|ERROR)\] BUILD (?:SUCCESS|FAILURE)`,
    String.raw`^\s*Compiling \S+ v\d+\.\d+`,
    String.raw`^\s*Finished \S+(?: profile)? \[[^\]]+\] target\(s\) in `,
    String.raw`^webpack \d+\.\d+\.\d+ compiled`,
    String.raw`^\S+\.[cm]?tsx?\(\d+,\d+\): error TS\d+:`,
    String.raw`^> Task :\S+`,
    String.raw`^Successfully (?:built|tagged) \S+`,
    // Xcode, yarn and mypy's last lines.
    String.raw`^\*\* (?:BUILD|TEST|ARCHIVE) (?:FAILED|SUCCEEDED) \*\*`,
    String.raw`^\W{0,4}Done in \d+(?:\.\d+)?m?s\.?$`,
    String.raw`^Found \d+ errors? in \d+ files? \(checked \d+ source files?\)`,
    // pip's last line: "Successfully installed numpy-1.26.4 pandas-2.2.1".
    String.raw`^Successfully installed (?:\S+-\d[\w.]*\s*)+$`,
  ].join("|"),
  "mu",
);

// "+-----------+------+" borders, "|===...|" rules and psql's "----+------": a table a tool printed.
const BORDER = /^\s*(?=[-=+|: ]*[+|])[-=+|: ]{8,}\s*$/u;
// psql's footer, "(2 rows)".
const ROW_COUNT = /^\s*\(\d+ rows?\)\s*$/u;
const NVIDIA = /\bNVIDIA-SMI \d|\bDriver Version: \d|\bCUDA Version: \d/u;

const TOOL_TRACE =
  /^\s*(?:[-*>→]\s*)?(?:\[(?:tool|function|tool_call|action)\]\s+[\w.-]+|(?:tool[ _-]?result|function[ _-]?result)\s*[:=]\s*[{[]|(?:calling|called) tool\s+[\w.-]+\s*\(|<\/?(?:tool_call|tool_use|tool_result|function_call|invoke)\b|(?:tool[ _-]?(?:call|use|result)|function[ _-]?call|calling tool|called tool|tool)\s*[:=(]\s*[`"']?[\w.-]+[`"']?\s*(?:\(|with\b|args?\b|arguments\b|input\b|→|->|returned\b|\{))/imu;
// An agent's reasoning loop, ReAct style: "Thought: …", "Action: …", "Action Input: …", "Observation: …".
const REACT_STEP = /^\s*(?:Thought|Action|Action Input|Observation|Final Answer):/mu;

// Someone saying what they want of the run keeps the memory.
const INTENT =
  /\b(?:user|prefers?|wants?|should|must|always|never|remember|because|lesson|learned|so that|decided|policy|rule)\b/iu;

/**
 * @example
 * testReport("===== 12 passed, 1 failed in 3.21s =====", {}); // => { rule: "test_report", … }
 * testReport("CI runs pytest with -x and --maxfail=1", {});   // => undefined
 */
export const testReport: NoiseRule = (text) => {
  if (INTENT.test(text)) return undefined;
  return TEST_SUMMARY.test(text) || GO_TEST.test(text) || TEST_LINE.test(text)
    ? { rule: "test_report", detail: `a test run's output (${linesOf(text).length} lines)` }
    : undefined;
};

/**
 * @example
 * buildOutput("Step 3/9 : RUN npm ci\n ---> Running in 4f2a", {}); // => { rule: "build_output", … }
 */
export const buildOutput: NoiseRule = (text) =>
  !INTENT.test(text) && BUILD_LINE.test(text)
    ? { rule: "build_output", detail: `a build's output (${linesOf(text).length} lines)` }
    : undefined;

/**
 * @example
 * tableOutput("+------+------+\n| id   | name |\n+------+------+", {}); // => { rule: "table_output", … }
 */
export const tableOutput: NoiseRule = (text) => {
  const lines = linesOf(text);
  const borders = lines.filter((line) => BORDER.test(line)).length;
  const footed = borders >= 1 && lines.some((line) => ROW_COUNT.test(line));
  return NVIDIA.test(text) || ((borders >= 2 || footed) && lines.length >= 3)
    ? { rule: "table_output", detail: `a table printed by a tool (${lines.length} lines)` }
    : undefined;
};

/**
 * @example
 * toolTrace('Tool call: read_file({"path": "src/index.ts"})', {}); // => { rule: "tool_trace", … }
 */
export const toolTrace: NoiseRule = (text) =>
  (!INTENT.test(text) && TOOL_TRACE.test(text)) ||
  linesOf(text).filter((line) => REACT_STEP.test(line)).length >= 3
    ? { rule: "tool_trace", detail: `a trace of a tool call: ${JSON.stringify(text.trim().slice(0, 60))}` }
    : undefined;
