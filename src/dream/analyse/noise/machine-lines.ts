/**
 * One line a program wrote, saved as a memory: an access-log line ("GET /healthz 200 OK 3ms"), a
 * syslog line ("Nov 21 02:00:01 shop CRON[18234]: (root) CMD (…)"), a call and what it returned
 * ("calendar.list_events(start="2026-11-18") → 3 events"), a training epoch's metrics, a status
 * record stamped with a time ("agent heartbeat 2026-11-22T08:15:00Z status=ok"), any line that
 * opens with a date and a time to the second (a log line, whatever the program wrote it).
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
  /^\s*(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)\s+\d{1,2}\s+\d{2}:\d{2}:\d{2}\s+\S+\s+[\w./-]+(?:\[\d+\])?:\s|^\s*[A-Za-z][\w./-]*\[\d+\]:\s/u;
// A call with its arguments, then an arrow or "returned" and what came back.
const CALL_RESULT =
  /^\s*(?:[→>*-]\s*)?[A-Za-z_][\w.]*\((?:[^()]|\([^()]*\))*\)\s*(?:→|->|=>|←|<-|returned\b)\s*\S/u;
const EPOCH_LINE = /^\s*Epoch\s+\d+\s*\/\s*\d+\b.*\b(?:loss|acc(?:uracy)?|val_\w+)\s*[:=]\s*\d/iu;
const STAMP =
  /\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?(?:\.\d+)?(?:Z|[+-]\d{2}:?\d{2})?\b|\b\d{2}:\d{2}:\d{2}\b/u;
const KEY_VALUE = /\b[a-z_][\w.-]*=[^\s=]+/giu;
// A line that opens with a date and a time to the second, however bracketed or ordered: "2026-11-24
// 14:02:11,523 - INFO …", "[Tue Nov 24 11:02:17.332841 2026] [php:error] …", "[25-Nov-2026
// 08:00:01 UTC] …", "[I 2026-11-24 09:12:33.481 ServerApp] …". A note a person dates has no seconds.
const STAMPED_START = /^\s*[[(]?[^\n\]]{0,32}?\b\d{1,2}:\d{2}:\d{2}(?:[.,]\d+)?\b/u;
const DATE_NEAR_START =
  /^\s*[[(]?[^\n]{0,40}?(?:\d{4}[-/]\d{2}[-/]\d{2}|\d{1,2}[-/ ](?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*[-/ ]\d{4}|(?:jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]* +\d{1,2}\b)/iu;
// A progress bar: "100%|██████████| 4.98G/4.98G", "[=====>      ] 45%".
const PROGRESS_BAR = /\d{1,3}%\s*\|[█▏▎▍▌▋▊▉ ]+\||\[[=#>.-]{5,}[ ]*\]\s*\d{1,3}%|\[[=#]{3,}>?[ ]+\]/u;
/** Each shape, in the order tried, and how the report names it. */
const SHAPES: readonly (readonly [(line: string) => boolean, string])[] = [
  [(line) => HTTP_LINE.test(line), "an access-log line"],
  [(line) => SYSLOG_LINE.test(line), "a syslog line"],
  [(line) => CALL_RESULT.test(line), "a call and what it returned"],
  [(line) => EPOCH_LINE.test(line), "a training epoch's metrics"],
  [(line) => PROGRESS_BAR.test(line), "a progress bar"],
  [
    (line) => STAMP.test(line) && (line.match(KEY_VALUE)?.length ?? 0) >= 1,
    "a status record stamped with a time",
  ],
];
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
  if (lines.length === 0 || lines.length > 3) return undefined;
  const line = lines[0] as string;
  // A line stamped to the second is a program's, whatever words it logs ("[I 2026-11-24
  // 09:12:33.481 ServerApp] …", "… INFO user alice logged in"); the other shapes must not be prose.
  const stamped = STAMPED_START.test(line) && DATE_NEAR_START.test(line);
  const prose = wordCount(text) > MAX_WORDS || INTENT.test(text);
  const shape = stamped
    ? "a log line stamped to the second"
    : prose
      ? undefined
      : SHAPES.find(([test]) => test(line))?.[1];
  return shape === undefined
    ? undefined
    : { rule: "machine_line", detail: `${shape}: ${JSON.stringify(line.trim().slice(0, 60))}` };
};
