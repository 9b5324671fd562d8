/**
 * Raw tool output pasted as a memory: JSON blobs, stack traces, shell listings and command
 * output, log dumps. Mem0's dream protocol deletes "raw tool output"; these rules recognise its
 * common shapes and leave prose that merely mentions a file, an error or a command alone.
 *
 * @module
 */

import { linesOf, type NoiseRule, wordCount } from "./noise-rule.js";

const JS_FRAME = /^\s*at\s+\S.*(?:\(.*:\d+(?::\d+)?\)|:\d+:\d+)\s*$/u;
const PY_FRAME = /^\s*File ".*", line \d+/u;
// PHP, Ruby and gdb-style numbered frames: "#0 /var/www/x.php(42): fn()", "#1 0x… in main ()".
const NUMBERED_FRAME = /^\s*#\d+\s+(?:\{main\}|\S+[(:]\d+\)?:?|0x[0-9a-f]+ in )/iu;
const TRACE_HEADERS =
  /Traceback \(most recent call last\)|^\s*(?:Exception in thread|Caused by:)|goroutine \d+ \[|thread '.*' panicked at|^Stack trace:$/mu;
const MARKUP_START = /^\s*<(?:!doctype|html|head|body|div|p|span|h[1-6]|table|pre|title|\?xml)\b/iu;
/** More words than this between the tags and it is a document someone kept, not a fetched page. */
const MAX_MARKUP_WORDS = 20;
const LS_LONG = /^[dlcbps-][rwxsStT-]{9}[@+.]?\s+\d+\s/u;
const PROMPT = /^\s*(?:\$|#|>|PS [^>]*>|[\w.-]+@[\w.-]+:[^$#\n]*[$#])\s+\S/u;
const BARE_NAME = /^[\w.@+-]+(?:\/[\w.@+-]+)*\/?$/u;
const LOG_LINE =
  /^\s*\[?(?:\d{4}-\d{2}-\d{2}[T ][\d:.,]+(?:Z|[+-]\d{2}:?\d{2})?\]?\s+)?\[?(?:INFO|WARN|WARNING|ERROR|DEBUG|TRACE|FATAL|ERR!)\]?[\s:]/u;
const COMMAND_OUTPUT =
  /^(?:On branch \S+|CONTAINER ID\s+IMAGE|NAME\s+READY\s+STATUS|npm (?:ERR|WARN)!|added \d+ packages)/mu;

/**
 * @example
 * jsonBlob('{"status":"ok","items":[]}', {}); // => { rule: "json_blob", … }
 */
export const jsonBlob: NoiseRule = (text) => {
  const trimmed = text.trim();
  if (!/^[[{]/u.test(trimmed) || !/[\]}]$/u.test(trimmed)) return undefined;
  try {
    const value: unknown = JSON.parse(trimmed);
    if (typeof value !== "object" || value === null) return undefined;
  } catch {
    // Not strict JSON; still a blob when most lines are `"key": value` pairs.
    const lines = linesOf(trimmed);
    const pairs = lines.filter((line) => /^\s*"[^"]+"\s*:/u.test(line)).length;
    if (lines.length < 3 || pairs < lines.length / 2) return undefined;
  }
  return { rule: "json_blob", detail: `a JSON value of ${trimmed.length} characters` };
};

/**
 * @example
 * stackTrace("TypeError: x is undefined\n    at f (src/a.ts:1:2)\n    at g (src/b.ts:3:4)", {}); // => { rule: "stack_trace", … }
 */
export const stackTrace: NoiseRule = (text) => {
  const lines = linesOf(text);
  const frames = lines.filter(
    (line) => JS_FRAME.test(line) || PY_FRAME.test(line) || NUMBERED_FRAME.test(line),
  ).length;
  return frames >= 2 || TRACE_HEADERS.test(text)
    ? { rule: "stack_trace", detail: `a stack trace (${frames} frames)` }
    : undefined;
};

/**
 * @example
 * shellOutput("$ ls\nREADME.md\nsrc\npackage.json", {}); // => { rule: "shell_output", … }
 */
export const shellOutput: NoiseRule = (text) => {
  const lines = linesOf(text);
  const listed = lines.filter((line) => LS_LONG.test(line)).length;
  const prompted = lines.length >= 2 && PROMPT.test(lines[0] ?? "");
  const names = lines.filter((line) => BARE_NAME.test(line.trim())).length;
  const bareListing = lines.length >= 3 && names / lines.length >= 0.8;
  if (listed >= 2 || prompted || bareListing || COMMAND_OUTPUT.test(text)) {
    return { rule: "shell_output", detail: `command output (${lines.length} lines)` };
  }
  return undefined;
};

/**
 * @example
 * logOutput("2026-11-30T10:00:01Z INFO started\n2026-11-30T10:00:02Z ERROR failed", {}); // => { rule: "log_output", … }
 */
/**
 * A page of markup a tool fetched: an HTML document or fragment that is mostly tags, with a few
 * words of text ("<html><head><title>404 Not Found</title>…").
 *
 * @example
 * markupPage("<html><body><h1>Not Found</h1></body></html>", {}); // => { rule: "markup_page", … }
 */
export const markupPage: NoiseRule = (text) => {
  if (!MARKUP_START.test(text)) return undefined;
  const tags = text.match(/<\/?[a-z][\w-]*\b[^>]*>/giu)?.length ?? 0;
  const words = wordCount(text.replace(/<[^>]*>/gu, " "));
  return tags >= 4 && words <= MAX_MARKUP_WORDS
    ? { rule: "markup_page", detail: `a page of markup (${tags} tags, ${words} words of text)` }
    : undefined;
};

export const logOutput: NoiseRule = (text) => {
  const lines = linesOf(text);
  const logged = lines.filter((line) => LOG_LINE.test(line)).length;
  return logged >= 2 && logged >= lines.length / 2
    ? { rule: "log_output", detail: `log output (${logged} log lines)` }
    : undefined;
};
