/**
 * One line a program wrote, saved as a memory: an access-log line ("GET /healthz 200 OK 3ms"), a
 * syslog line ("Nov 21 02:00:01 shop CRON[18234]: (root) CMD (…)"), a call and what it returned
 * ("calendar.list_events(start="2026-11-18") → 3 events"), a training epoch's metrics, a status
 * record stamped with a time ("agent heartbeat 2026-11-22T08:15:00Z status=ok").
 *
 * Each shape is a program's own syntax — an HTTP method before a path and a status, a syslog
 * header, a call followed by an arrow, `Epoch n/m` with metrics, a timestamp beside `key=value`
 * pairs — not a list of programs. A sentence about such a line keeps it: "The health check hits
 * GET /healthz and expects 200" has no status after the path, and "user", "should", "when"… mark a
 * memory someone meant.
 *
 * @module
 */

import { linesOf, type NoiseRule, wordCount } from "./noise-rule.js";

const HTTP_LINE =
  /^\s*(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS)\s+\/\S*\s+(?:HTTP\/[\d.]+\s+)?[1-5]\d{2}\b/u;
const SYSLOG_LINE =
  /^\s*(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}\s+\S+\s+[\w./-]+(?:\[\d+\])?:\s/u;
// A call with its arguments, then an arrow or "returned" and what came back.
const CALL_RESULT =
  /^\s*(?:[→>*-]\s*)?[A-Za-z_][\w.]*\((?:[^()]|\([^()]*\))*\)\s*(?:→|->|=>|←|<-|returned\b)\s*\S/u;
const EPOCH_LINE = /^\s*Epoch\s+\d+\s*\/\s*\d+\b.*\b(?:loss|acc(?:uracy)?|val_\w+)\s*[:=]\s*\d/iu;
const STAMP =
  /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?\b|\b\d{2}:\d{2}:\d{2}\b/u;
const KEY_VALUE = /\b[a-z_][\w.-]*=[^\s=]+/giu;
/** A line this long is prose, whatever it quotes. */
const MAX_WORDS = 20;
const INTENT =
  /\b(?:user|users|i|we|my|our|prefers?|wants?|should|must|always|never|remember|because|lesson|learned|so that|decided|policy|rule|expects?|means|whenever|if|unless)\b/iu;

/**
 * @example
 * machineLine("GET /healthz 200 OK 3ms", {});                            // => { rule: "machine_line", … }
 * machineLine("The health check hits GET /healthz and expects 200", {}); // => undefined
 */
export const machineLine: NoiseRule = (text) => {
  const lines = linesOf(text);
  if (lines.length === 0 || lines.length > 3 || wordCount(text) > MAX_WORDS || INTENT.test(text))
    return undefined;
  const line = lines[0] as string;
  const shape = HTTP_LINE.test(line)
    ? "an access-log line"
    : SYSLOG_LINE.test(line)
      ? "a syslog line"
      : CALL_RESULT.test(line)
        ? "a call and what it returned"
        : EPOCH_LINE.test(line)
          ? "a training epoch's metrics"
          : STAMP.test(line) && (line.match(KEY_VALUE)?.length ?? 0) >= 1
            ? "a status record stamped with a time"
            : undefined;
  return shape === undefined
    ? undefined
    : { rule: "machine_line", detail: `${shape}: ${JSON.stringify(line.trim().slice(0, 60))}` };
};
