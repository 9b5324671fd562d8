/**
 * Issue 11, major 8: a large scope is planned in a worker thread, so the process's event loop keeps
 * running meanwhile (a server's other requests, an HTTP embedder's keep-alive), and the plan is the
 * one the same analysers make in the main thread.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { buildSnapshot } from "../../src/dream/build-snapshot.js";
import { planDream } from "../../src/dream/plan-dream.js";
import { OFF_THREAD_FROM } from "../../src/dream/plan-off-thread.js";
import type { Embedder } from "../../src/embed/embedder.js";
import { type Memory, openMemory } from "../../src/index.js";
import { tempFiles } from "../helpers/temp-dir.js";

/**
 * Counts the plans made on this thread. The worker loads its own copy of the module, which this mock
 * does not reach: a count that stays at zero means the analysers ran elsewhere.
 */
const mainThread = vi.hoisted(() => ({ plans: 0 }));
vi.mock("../../src/dream/plan-dream.js", async (importActual) => {
  const actual = await importActual<typeof import("../../src/dream/plan-dream.js")>();
  return {
    ...actual,
    planDream: (...args: Parameters<typeof actual.planDream>) => {
      mainThread.plans++;
      return actual.planDream(...args);
    },
  };
});

const files = tempFiles("off-thread");
const SIZE = OFF_THREAD_FROM * 3;
/** Vectors in families of three near-identical texts, so the analysers find merges to propose. */
const embedder: Embedder = {
  id: "families",
  dimension: 8,
  embed: async (texts) =>
    texts.map((text) => {
      const family = Number(/(\d+)/.exec(text)?.[1] ?? 0);
      return Array.from(
        { length: 8 },
        (_, i) => Math.sin(family * 7.1 + i) + (i === 0 ? text.length / 1000 : 0),
      );
    }),
};
let memory: Memory;

beforeAll(async () => {
  memory = await openMemory({ path: files.path(), embedder });
  const records = Array.from({ length: SIZE }, (_, index) => ({
    text: [`User ${index % 500} likes green tea`, `User ${index % 500} likes green tea a lot`, `ok ${index}`][
      Math.floor(index / 500)
    ] as string,
    user_id: "alice",
    created_at: new Date(Date.UTC(2026, 0, 1) + index * 60_000).toISOString(),
  }));
  await memory.importMemories(records, { batchSize: 500 });
}, 120_000);
afterAll(async () => {
  await memory.close();
});

describe("planning a large scope", () => {
  it("runs the analysers in a worker, not on the event loop's thread", async () => {
    mainThread.plans = 0;
    const plan = await memory.dream.plan({ userId: "alice" }, { now: "2026-11-30T00:00:00Z" });
    expect(mainThread.plans).toBe(0);
    expect(plan.reviewed).toBe(SIZE);
    // The worker's answer is parsed like any plan from outside: frozen, and accepted by apply.
    expect(Object.isFrozen(plan.actions)).toBe(true);

    await memory.dream.plan({ userId: "bob" }, { now: "2026-11-30T00:00:00Z" });
    expect(mainThread.plans).toBe(1); // a small scope stays on this thread: a worker would cost more
  });

  it("gives the plan the main thread would give", async () => {
    const now = "2026-11-30T00:00:00.000Z";
    const offThread = await memory.dream.plan({ userId: "alice" }, { now });
    const context = await memory.ready();
    const { rows } = await context.store.listMemories({
      filter: { kind: "condition", field: "user_id", op: "eq", value: "alice" },
      limit: SIZE,
      offset: 0,
    });
    const vectors = await context.store.getEmbeddings(rows.map((row) => row.id));
    const inThread = planDream(
      buildSnapshot({ scope: { user_id: "alice" }, now, rows, vectors }),
      context.policy,
    );
    expect(offThread.actions).toEqual(inThread.actions);
    expect(offThread.actions.length).toBeGreaterThan(0);
  });
});
