/**
 * The scheduler behind `lucid sleep --every "0 3 * * *" [--tz ZONE]` and the MCP server's background
 * sweep: a cron expression parsed by croner, and a loop that runs one job at each of its times.
 *
 * Only one job runs at a time in this process; a tick that finds the previous job still running is
 * reported as skipped, not queued. Other processes are the job's own concern (it takes a lease).
 *
 * @module
 */

import { Cron } from "croner";
import { LucidError } from "../errors.js";

/** A parsed cron expression, in a time zone or the process's local time. */
export interface Schedule {
  /** The first time of the schedule strictly after `after`, or null when there is none. */
  next(after: Date): Date | null;
  /** The expression and its zone, for messages: `0 3 * * * (Europe/Paris)`. */
  describe(): string;
}

/** What happened at one time of the schedule. */
export interface ScheduleRunEvent<T> {
  /** The scheduled time (not the moment the timer fired). */
  at: Date;
  /** What the job returned, when it succeeded. */
  result?: T;
  /** What the job threw, when it failed; the loop goes on. */
  error?: unknown;
  /** Set when the job did not run because the previous one was still running. */
  skipped?: "busy";
}

export interface RunOnScheduleOptions<T> {
  schedule: Schedule;
  job: () => Promise<T>;
  /** Called after each run, failure or skip. An error thrown here stops the loop and rejects it. */
  onRun?: (event: ScheduleRunEvent<T>) => void;
  /** Stops the loop; its promise resolves once the running job, if any, has finished. */
  signal?: AbortSignal;
}

const EXAMPLE = `e.g. "0 3 * * *" = every day at 03:00, "*/30 * * * *" = every 30 minutes`;

// Node's timers run on the monotonic clock, which stops while the machine sleeps and ignores changes
// of the wall clock; waking once a minute to compare with the wall clock keeps a 03:00 run near
// 03:00 after a suspend. It also keeps every delay below setTimeout's limit of 2^31-1 ms.
const MAX_WAIT_MS = 60_000;

/**
 * Parses a cron expression of 5 fields (minute hour day month weekday), or 6 with seconds first,
 * in `timeZone` (an IANA name) or the local time of the process.
 *
 * @throws LucidError `INVALID_ARGUMENT` for a bad expression, one that never matches, or an unknown zone.
 * @example
 * const schedule = parseSchedule("0 3 * * *", "Europe/Paris");
 * schedule.next(new Date("2025-01-15T12:00:00Z")); // 2025-01-16T02:00:00.000Z
 * schedule.describe(); // "0 3 * * * (Europe/Paris)"
 */
export function parseSchedule(expression: string, timeZone?: string): Schedule {
  const pattern = expression.trim().replace(/\s+/g, " ");
  const zone = timeZone === undefined ? undefined : resolveZone(expression, timeZone);
  let cron: Cron;
  try {
    cron = new Cron(pattern, { mode: "5-or-6-parts", ...(zone === undefined ? {} : { timezone: zone }) });
  } catch (cause) {
    const reason = cause instanceof Error ? ` (${cause.message})` : "";
    throw new LucidError(
      "INVALID_ARGUMENT",
      `Invalid schedule "${expression}"${reason}: give a cron expression of 5 fields (minute hour day ` +
        `month weekday) or 6 with seconds first, ${EXAMPLE}.`,
      { cause, details: { expression, timeZone } },
    );
  }
  if (cron.nextRun(new Date()) === null) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `Schedule "${expression}" never matches a date (such as 31 February): ${EXAMPLE}.`,
      { details: { expression, timeZone } },
    );
  }
  const described = `${pattern} (${zone ?? "local time"})`;
  return Object.freeze({
    next: (after: Date) => cron.nextRun(after),
    describe: () => described,
  });
}

/** The canonical IANA name of `timeZone` ("europe/paris" → "Europe/Paris"). */
function resolveZone(expression: string, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat("en-US", { timeZone }).resolvedOptions().timeZone;
  } catch (cause) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `Unknown time zone "${timeZone}" for schedule "${expression}": give an IANA name such as ` +
        `"Europe/Paris" or "UTC", or leave it out for local time.`,
      { cause, details: { expression, timeZone } },
    );
  }
}

/**
 * Runs `job` at each time of `schedule` until `signal` aborts. A job that throws is reported through
 * `onRun` and the loop goes on; a time that comes while the previous job still runs is reported as
 * `skipped: "busy"`. Each next time is computed from the wall clock after the tick, so a slow job or
 * a clock change never makes the loop drift or catch up on missed times.
 *
 * @example
 * const { signal, dispose } = shutdownSignal();
 * await runOnSchedule({
 *   schedule: parseSchedule("0 3 * * *", "Europe/Paris"),
 *   job: () => sweep(memory),
 *   onRun: (event) => console.log(event.at.toISOString(), event.error ?? event.skipped ?? "done"),
 *   signal,
 * });
 * dispose();
 */
export async function runOnSchedule<T>(options: RunOnScheduleOptions<T>): Promise<void> {
  const { schedule, job, onRun, signal } = options;
  // Linked to `signal`, and aborted as well when onRun throws.
  const stop = new AbortController();
  const onAbort = () => stop.abort();
  signal?.addEventListener("abort", onAbort, { once: true });
  if (signal?.aborted) stop.abort();

  let failure: { error: unknown } | undefined;
  const report = (event: ScheduleRunEvent<T>) => {
    try {
      onRun?.(event);
    } catch (error) {
      failure ??= { error };
      stop.abort();
    }
  };

  const run = async (at: Date) => {
    try {
      const result = await job();
      report({ at, result });
    } catch (error) {
      report({ at, error });
    }
  };

  let running: Promise<void> | undefined;
  // The last time handled: if the wall clock is set back, the same time is not run twice.
  let last = 0;
  try {
    while (!stop.signal.aborted) {
      const at = schedule.next(new Date(Math.max(Date.now(), last)));
      if (at === null) break;
      if (!(await waitUntil(at, stop.signal))) break;
      last = at.getTime();
      if (running !== undefined) {
        report({ at, skipped: "busy" });
        continue;
      }
      // Cleared in `.finally`, which runs on a later microtask: a job that throws synchronously
      // would otherwise clear it before this assignment and leave the loop busy for ever.
      running = run(at).finally(() => {
        running = undefined;
      });
    }
    await running;
  } finally {
    signal?.removeEventListener("abort", onAbort);
  }
  if (failure !== undefined) throw failure.error;
}

/** Resolves true once the wall clock reaches `at`, false as soon as `signal` aborts. */
async function waitUntil(at: Date, signal: AbortSignal): Promise<boolean> {
  for (;;) {
    if (signal.aborted) return false;
    const remaining = at.getTime() - Date.now();
    if (remaining <= 0) return true;
    await new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener("abort", done);
        resolve();
      };
      const timer = setTimeout(done, Math.min(remaining, MAX_WAIT_MS));
      signal.addEventListener("abort", done, { once: true });
    });
  }
}
