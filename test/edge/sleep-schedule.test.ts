import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it, vi } from "vitest";
import { parseSchedule, runOnSchedule, type ScheduleRunEvent } from "../../src/edge/sleep-schedule.js";
import { isLucidError } from "../../src/errors.js";

// Real croner, real timers. Every-second schedules and generous waits, and no assertion on how long
// anything took: the suite must hold on a busy two-core machine.
const EVERY_SECOND = "* * * * * *";
const WAIT = { timeout: 15_000, interval: 50 };

function invalidArgument(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    if (isLucidError(error, "INVALID_ARGUMENT")) return error.message;
    throw error;
  }
  throw new Error("expected INVALID_ARGUMENT");
}

/** Starts a loop and collects its events; `stop()` aborts it and waits for it to resolve. */
function start<T>(job: () => Promise<T>) {
  const events: ScheduleRunEvent<T>[] = [];
  const controller = new AbortController();
  const done = runOnSchedule({
    schedule: parseSchedule(EVERY_SECOND),
    job,
    onRun: (event) => events.push(event),
    signal: controller.signal,
  });
  return {
    events,
    done,
    abort: () => controller.abort(),
    stop: async () => {
      controller.abort();
      await done;
    },
  };
}

describe("parseSchedule", () => {
  it("rejects a bad expression with INVALID_ARGUMENT naming it", () => {
    for (const expression of ["every day", "0 3 * *", "61 3 * * *", "0 0 3 * * * 2030", "", "0 3 31 2 *"]) {
      expect(invalidArgument(() => parseSchedule(expression))).toContain(`"${expression}"`);
    }
  });

  it("rejects an unknown time zone with INVALID_ARGUMENT naming the expression and the zone", () => {
    const message = invalidArgument(() => parseSchedule("0 3 * * *", "Mars/Olympus_Mons"));
    expect(message).toContain('"0 3 * * *"');
    expect(message).toContain("Mars/Olympus_Mons");
    expect(invalidArgument(() => parseSchedule("0 3 * * *", ""))).toContain('"0 3 * * *"');
  });

  it("computes the next 03:00 in Europe/Paris, in winter and in summer time", () => {
    const schedule = parseSchedule("0 3 * * *", "Europe/Paris");
    expect(schedule.next(new Date("2025-01-15T12:00:00Z"))).toEqual(new Date("2025-01-16T02:00:00Z"));
    expect(schedule.next(new Date("2025-07-15T12:00:00Z"))).toEqual(new Date("2025-07-16T01:00:00Z"));
    // strictly after: at 03:00 itself the next run is the following day
    expect(schedule.next(new Date("2025-01-16T02:00:00Z"))).toEqual(new Date("2025-01-17T02:00:00Z"));
    expect(schedule.describe()).toBe("0 3 * * * (Europe/Paris)");
  });

  it("accepts a seconds field and a zone in any case", () => {
    const schedule = parseSchedule("30 0 3 * * *", "europe/paris");
    expect(schedule.next(new Date("2025-01-15T12:00:00Z"))).toEqual(new Date("2025-01-16T02:00:30Z"));
    expect(schedule.describe()).toBe("30 0 3 * * * (Europe/Paris)");
    expect(parseSchedule("0 3 * * *").describe()).toBe("0 3 * * * (local time)");
  });
});

describe("runOnSchedule", () => {
  it("runs the job at each time of the schedule", async () => {
    let calls = 0;
    const loop = start(async () => ++calls);
    await vi.waitFor(() => expect(loop.events.length).toBeGreaterThanOrEqual(2), WAIT);
    await loop.stop();
    const [first, second] = loop.events;
    expect(first).toMatchObject({ result: 1 });
    expect(second).toMatchObject({ result: 2 });
    expect(second?.at.getTime()).toBeGreaterThan(first?.at.getTime() ?? Number.POSITIVE_INFINITY);
  });

  it("reports a job that throws and goes on running", async () => {
    const failure = new Error("sweep failed");
    let calls = 0;
    const loop = start(async () => {
      calls += 1;
      if (calls === 1) throw failure;
      return calls;
    });
    await vi.waitFor(() => expect(loop.events.some((event) => event.result !== undefined)).toBe(true), WAIT);
    await loop.stop();
    expect(loop.events[0]).toMatchObject({ error: failure });
    expect(loop.events[0]?.result).toBeUndefined();
    expect(loop.events.slice(1).every((event) => event.error === undefined)).toBe(true);
  });

  it("survives a job that throws synchronously", async () => {
    let calls = 0;
    const loop = start((): Promise<number> => {
      calls += 1;
      if (calls === 1) throw new Error("not even a promise");
      return Promise.resolve(calls);
    });
    await vi.waitFor(() => expect(loop.events.some((event) => event.result !== undefined)).toBe(true), WAIT);
    await loop.stop();
    expect(loop.events[0]?.error).toBeInstanceOf(Error);
    expect(loop.events.some((event) => event.skipped !== undefined)).toBe(false);
  });

  it("skips a tick while the previous job still runs, never running two at once", async () => {
    let active = 0;
    let mostActive = 0;
    const loop = start(async () => {
      active += 1;
      mostActive = Math.max(mostActive, active);
      // longer than the one-second interval, so at least one tick lands while it runs
      await sleep(2_500);
      active -= 1;
    });
    await vi.waitFor(() => {
      expect(loop.events.some((event) => event.skipped === "busy")).toBe(true);
      expect(loop.events.some((event) => event.skipped === undefined)).toBe(true);
    }, WAIT);
    await loop.stop();
    expect(mostActive).toBe(1);
    expect(active).toBe(0);
    const skip = loop.events.find((event) => event.skipped === "busy");
    expect(skip).toEqual({ at: expect.any(Date), skipped: "busy" });
  });

  it("stops on abort and resolves once the running job has finished", async () => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let started = 0;
    const loop = start(async () => {
      started += 1;
      await held;
      return "finished";
    });
    await vi.waitFor(() => expect(started).toBe(1), WAIT);

    let resolved = false;
    void loop.done.then(() => {
      resolved = true;
    });
    loop.abort();
    await sleep(200);
    expect(resolved).toBe(false);
    release();
    await loop.done;
    expect(loop.events.filter((event) => event.skipped === undefined)).toEqual([
      { at: expect.any(Date), result: "finished" },
    ]);

    // nothing more runs once it has stopped, however long we wait
    const seen = loop.events.length;
    await sleep(2_000);
    expect(started).toBe(1);
    expect(loop.events).toHaveLength(seen);
  });

  it("resolves at once, without running, when the signal is already aborted", async () => {
    let calls = 0;
    await runOnSchedule({
      schedule: parseSchedule(EVERY_SECOND),
      job: async () => ++calls,
      signal: AbortSignal.abort(),
    });
    expect(calls).toBe(0);
  });

  it("stops and rejects with the error when onRun throws", async () => {
    const bug = new Error("listener bug");
    const controller = new AbortController();
    const done = runOnSchedule({
      schedule: parseSchedule(EVERY_SECOND),
      job: async () => "ok",
      onRun: () => {
        throw bug;
      },
      signal: controller.signal,
    });
    await expect(done).rejects.toBe(bug);
    controller.abort();
  });
});
