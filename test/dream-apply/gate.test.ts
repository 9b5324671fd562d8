/**
 * The auto-dream gate, lease and sessions; the cases follow Mem0's 15 dream-gate tests
 * (specs/mem0.md §A.2), run against a real store instead of a mocked file system.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { MemoryContext } from "../../src/core/context.js";
import { checkGate, renderGateLine } from "../../src/dream/gate/gate.js";
import { LEASE_TTL_MS, withDreamLease } from "../../src/dream/gate/lease.js";
import { recordSession } from "../../src/dream/gate/sessions.js";
import { type Memory, openMemory } from "../../src/index.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("dream-gate");
const embedder = scriptedEmbedder(2, (text) => [1, text.length]);
const clock = { current: new Date("2026-06-01T00:00:00Z"), now: () => clock.current };
const alice = { user_id: "alice" };
const hoursLater = (hours: number) => new Date(Date.parse("2026-06-01T00:00:00Z") + hours * 3_600_000);

let memory: Memory;
let context: MemoryContext;

beforeEach(async () => {
  clock.current = hoursLater(0);
  memory = await openMemory({ path: files.path(), embedder, clock });
  context = await memory.ready();
});
afterEach(async () => {
  await memory.close();
});

async function sessions(count: number, prefix = "s"): Promise<void> {
  for (let index = 0; index < count; index++)
    await recordSession(context, `${prefix}${index}`, { userId: "alice" });
}

async function memories(count: number): Promise<void> {
  for (let index = 0; index < count; index++) await memory.add(`Fact number ${index}`, { userId: "alice" });
}

describe("sessions", () => {
  it("counts a new session and ignores a repeated id, even after others", async () => {
    expect(await recordSession(context, "a", { userId: "alice" })).toEqual({
      counted: true,
      sessionsSince: 1,
    });
    expect(await recordSession(context, "a", { userId: "alice" })).toEqual({
      counted: false,
      reason: "already_counted",
      sessionsSince: 1,
    });
    await recordSession(context, "b", { userId: "alice" });
    expect((await recordSession(context, "a", { userId: "alice" })).sessionsSince).toBe(2);
  });

  it("does not count background triggers", async () => {
    for (const trigger of ["cron", "heartbeat", "automation", "schedule", "subagent", "Subagents"]) {
      expect(await recordSession(context, `bg-${trigger}`, { userId: "alice", trigger })).toMatchObject({
        counted: false,
        reason: "non_interactive",
      });
    }
    expect((await context.store.dreamGateState("user_id=alice")).sessionsSince).toBe(0);
  });

  it("needs a scope and a session id", async () => {
    await expect(recordSession(context, "s", {})).rejects.toMatchObject({ code: "SCOPE_REQUIRED" });
    await expect(recordSession(context, "", { userId: "alice" })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });
});

describe("gate", () => {
  it("passes when never consolidated and enough sessions and memories (defaults)", async () => {
    await sessions(5);
    await memories(20);
    const status = await checkGate(context, alice);
    expect(status).toMatchObject({
      eligible: true,
      blocking: null,
      reason: null,
      hoursSince: null,
      sessions: 5,
      memories: 20,
    });
    expect(renderGateLine(status)).toBe("auto-dream: eligible");
  });

  it("fails the time gate when the last dream was too recent", async () => {
    await context.store.recordDreamCompletion("user_id=alice", hoursLater(0).toISOString());
    await sessions(100);
    clock.current = hoursLater(1);
    const status = await checkGate(context, alice, { thresholds: { minHours: 24, minSessions: 5 } });
    expect(status).toMatchObject({
      eligible: false,
      blocking: "time",
      reason: "time: 1.0h < 24h",
      memories: null,
    });
    clock.current = hoursLater(24);
    expect((await checkGate(context, alice, { thresholds: { minMemories: 0 } })).eligible).toBe(true);
  });

  it("fails the session gate with too few sessions, and passes at equality", async () => {
    await sessions(2);
    const status = await checkGate(context, alice, { countAlways: true });
    expect(status).toMatchObject({ blocking: "sessions", reason: "sessions: 2 < 5", memories: 0 });
    expect(renderGateLine(status)).toBe("auto-dream: waiting — sessions 2/5, memories 0/20");
    await sessions(3, "t");
    expect((await checkGate(context, alice, { thresholds: { minMemories: 0 } })).eligible).toBe(true);
  });

  it("counts memories only once the cheap gates pass, and passes at equality", async () => {
    await sessions(5);
    await memories(5);
    const few = await checkGate(context, alice);
    expect(few).toMatchObject({ blocking: "memories", reason: "memories: 5 < 20", memories: 5 });
    expect((await checkGate(context, alice, { thresholds: { minMemories: 5 } })).eligible).toBe(true);
  });

  it("records completion: the clock restarts and sessions go back to zero", async () => {
    await sessions(7);
    await context.store.recordDreamCompletion("user_id=alice", hoursLater(0).toISOString());
    clock.current = hoursLater(30);
    const status = await checkGate(context, alice);
    expect(status).toMatchObject({ sessions: 0, blocking: "sessions", hoursSince: 30 });
  });

  it("is off when disabled", async () => {
    await sessions(5);
    await memories(20);
    const status = await checkGate(context, alice, { enabled: false });
    expect(status).toMatchObject({ eligible: false, blocking: "disabled" });
    expect(renderGateLine(status)).toBe("auto-dream: disabled (LUCID_DREAM)");
  });
});

describe("lease", () => {
  it("lets one dreamer in, tells the other who holds it, and frees it afterwards", async () => {
    let inner: unknown;
    await withDreamLease(context, alice, async () => {
      inner = await withDreamLease(context, alice, async () => "second").catch((error: unknown) => error);
    });
    expect(inner).toMatchObject({ code: "DREAM_LEASE_HELD", details: { heldBy: { pid: process.pid } } });
    expect(await withDreamLease(context, alice, async () => "free again")).toBe("free again");
  });

  it("takes over at once a lease whose holder on this host is gone, but not a live one's", async () => {
    const { spawnSync } = await import("node:child_process");
    const { hostname } = await import("node:os");
    // The pid of a process that has just exited: gone, on this host.
    const gone = spawnSync(process.execPath, ["-e", "0"]).pid ?? 0;
    await context.store.acquireLease(
      "user_id=alice",
      { holder: "killed", host: hostname(), pid: gone },
      hoursLater(0).toISOString(),
      LEASE_TTL_MS,
    );
    expect(await withDreamLease(context, alice, async () => "taken over")).toBe("taken over");
    // A live holder (this test's parent, say) keeps it until it expires.
    await context.store.acquireLease(
      "user_id=alice",
      { holder: "alive", host: hostname(), pid: process.ppid },
      hoursLater(0).toISOString(),
      LEASE_TTL_MS,
    );
    await expect(withDreamLease(context, alice, async () => "refused")).rejects.toMatchObject({
      code: "DREAM_LEASE_HELD",
    });
    await context.store.releaseLease("user_id=alice", "alive");
  });

  it("reclaims a lease left by a crashed holder once it is stale", async () => {
    const crashed = { holder: "gone", host: "elsewhere", pid: 99999 };
    await context.store.acquireLease("user_id=alice", crashed, hoursLater(0).toISOString(), LEASE_TTL_MS);
    clock.current = hoursLater(0.5);
    await expect(withDreamLease(context, alice, async () => "too soon")).rejects.toMatchObject({
      code: "DREAM_LEASE_HELD",
    });
    clock.current = hoursLater(1);
    expect(await withDreamLease(context, alice, async () => "reclaimed")).toBe("reclaimed");
  });
});
