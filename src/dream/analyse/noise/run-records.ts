/**
 * Machine chatter: bare timestamps, heartbeat acknowledgements, cron and scheduler run records,
 * and health-check probes — things an agent's loop writes, never facts about the user or project.
 *
 * @module
 */

import { linesOf, type NoiseRule, wordCount } from "./noise-rule.js";

const HEARTBEAT_TOKEN = /^\s*\[?(?:HEARTBEAT(?:_OK)?|NO_REPLY|PING|PONG|KEEPALIVE)\]?\s*[.!]?\s*$/iu;
const HEARTBEAT_LINE =
  /^\s*\[?heartbeat\]?\b.{0,80}\b(?:ok|ack(?:nowledged)?|received|sent|alive|checked?|passed|tick|healthy)\b/iu;

// A tag, or the subject line of the mail cron sends after each run: "Cron <root@web1> /usr/bin/backup".
const RUN_TAG =
  /^\s*(?:\[(?:cron|scheduler|job|task|heartbeat|runner|worker)\]|(?:cron|scheduler|runner)\s*:|(?:subject:\s*)?cron\s+<[^\s<>@]+@[^\s<>]+>\s+\S)/iu;
const RUN_SUBJECT =
  /\b(?:cron(?:job|tab)?|scheduled (?:job|task|run)|job|task|run|workflow|runner|worker)\b/iu;
const RUN_STATUS =
  /\b(?:ran|started|finished|completed|succeeded|success(?:ful)?|failed|failure|exited|exit code|status|triggered|executed|skipped)\b/iu;
const RUN_EVIDENCE =
  /\d{1,2}:\d{2}|\d{4}-\d{2}-\d{2}|\b\d+(?:\.\d+)?\s?(?:ms|s|sec|secs|seconds|m|min|mins|minutes)\b|exit(?:ed)?(?: with)?(?: code)? -?\d+|\bstatus[:=]\s*\w+|#\d+|\brun id\b/iu;
// A run record reports one run; a memory about a job says what someone wants, learned, or what
// happens in general ("when the job fails with exit code 137 the pod ran out of memory").
const INTENT =
  /\b(?:user|prefers?|wants?|should|must|always|never|remember|because|lesson|learned|so that|plan(?:s|ned)?|decided|every|each|nightly|daily|weekly|when|whenever|if|unless|means)\b/iu;

const ISO_DATETIME = /\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?/giu;
const CLOCK = /\b\d{1,2}:\d{2}(?::\d{2})?\s?(?:[ap]\.?m\.?)?/giu;
const NUMERIC_DATE = /\b\d{1,2}[/.-]\d{1,2}[/.-]\d{2,4}\b/gu;
const EPOCH = /^\s*\d{10}(?:\d{3})?\s*$/u;
const CALENDAR_WORDS =
  /\b(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sept?(?:ember)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?|mon(?:day)?|tue(?:s(?:day)?)?|wed(?:nesday)?|thu(?:rs(?:day)?)?|fri(?:day)?|sat(?:urday)?|sun(?:day)?|utc|gmt|z|[a-z]{2,4}t|at|on|of|the)\b/giu;
const LABEL =
  /^\s*(?:current time|timestamp|time|date|now|sent|received|created|updated|logged)\s*[:=-]?\s*/iu;

/** Mem0's status skill writes "Health check probe — safe to delete." with `{type: "health_check", probe: true}`. */
export const healthProbe: NoiseRule = (text, metadata) =>
  metadata.type === "health_check" || metadata.probe === true || /^\s*health check probe\b/iu.test(text)
    ? { rule: "health_probe", detail: "a health-check probe" }
    : undefined;

/**
 * @example
 * heartbeat("HEARTBEAT_OK", {}); // => { rule: "heartbeat", … }
 */
export const heartbeat: NoiseRule = (text) =>
  HEARTBEAT_TOKEN.test(text) || (HEARTBEAT_LINE.test(text) && wordCount(text) <= 12)
    ? { rule: "heartbeat", detail: `heartbeat record: ${JSON.stringify(text.trim().slice(0, 60))}` }
    : undefined;

/**
 * @example
 * cronRecord("[cron] backup-db completed in 4.2s (exit 0)", {}); // => { rule: "cron_record", … }
 * cronRecord("User wants the backup job to run nightly", {});   // => undefined
 */
export const cronRecord: NoiseRule = (text) => {
  // Words inside a job's name ("nightly-backup") are not someone's intent.
  const prose = text.replace(/\S*[\w][-_/.][\w]\S*/gu, " ");
  if (wordCount(text) > 30 || linesOf(text).length > 3 || INTENT.test(prose)) return undefined;
  const tagged = RUN_TAG.test(text);
  const reported = RUN_SUBJECT.test(text) && RUN_STATUS.test(text) && RUN_EVIDENCE.test(text);
  return tagged || reported
    ? { rule: "cron_record", detail: `run record: ${JSON.stringify(text.trim().slice(0, 60))}` }
    : undefined;
};

/**
 * A text that is only a date and/or time ("2026-11-30T09:15:00Z", "Timestamp: Mon 30 Nov 10:02").
 *
 * @example
 * bareTimestamp("2026-11-30 09:15", {}); // => { rule: "bare_timestamp", … }
 */
export const bareTimestamp: NoiseRule = (text) => {
  if (!/\d/u.test(text) || wordCount(text) > 8) return undefined;
  const rest = text
    .replace(LABEL, "")
    .replace(ISO_DATETIME, " ")
    .replace(CLOCK, " ")
    .replace(NUMERIC_DATE, " ")
    .replace(CALENDAR_WORDS, " ")
    .replace(/\b\d{1,4}(?:st|nd|rd|th)?\b/gu, " ");
  const onlyTime = EPOCH.test(text) || !/[\p{L}\p{N}]/u.test(rest);
  return onlyTime
    ? { rule: "bare_timestamp", detail: `only a timestamp: ${JSON.stringify(text.trim())}` }
    : undefined;
};
