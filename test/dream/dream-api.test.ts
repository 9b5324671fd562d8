import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryContext } from "../../src/core/context.js";
import { loadSnapshot } from "../../src/dream/load-snapshot.js";
import { renderReport } from "../../src/dream/render-report.js";
import { isLucidError, type Memory, openMemory } from "../../src/index.js";
import { resolvePolicy } from "../../src/policy/resolve-policy.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("dream-api");
// Vectors from the text's length and first letter: enough geometry for neighbours, no model.
const embedder = scriptedEmbedder(4, (text) => [
  1,
  text.length / 50,
  text.charCodeAt(0) / 100,
  text.includes("tab") ? 1 : 0,
]);
let memory: Memory;
let context: MemoryContext;

beforeAll(async () => {
  memory = await openMemory({
    path: files.path(),
    embedder,
    clock: { now: () => new Date("2026-11-30T12:00:00Z") },
  });
  context = await memory.ready();
  const alice = { userId: "alice" };
  await memory.add("I prefer tabs", alice);
  await memory.add("ok thanks", alice);
  await memory.add("Deploy queue paused for the migration", {
    ...alice,
    category: "operational",
    createdAt: "2026-11-01T00:00:00Z",
  });
  await memory.add("User's editor is Neovim", { ...alice, metadata: { pinned: true } });
  await memory.add("thanks!", { userId: "bob" });
  for (let index = 0; index < 25; index++) {
    await memory.add(`Paged fact number ${index} about the billing-api`, { userId: "pager" });
  }
});
afterAll(async () => {
  await memory.close();
});

describe("memory.dream.plan", () => {
  it("plans one scope, expired memories included, and changes nothing", async () => {
    const before = await memory.getAll({ userId: "alice", showExpired: true });
    const plan = await memory.dream.plan({ userId: "alice" });
    expect(plan.scope).toEqual({ user_id: "alice" });
    expect(plan.now).toBe("2026-11-30T12:00:00.000Z");
    expect(plan.reviewed).toBe(4);
    expect(plan.stats.deletes).toMatchObject({ noise: 1, expired: 1 });
    expect(plan.actions.find((action) => action.kind === "rewrite")).toMatchObject({
      text: "User prefers tabs",
    });
    expect(renderReport(plan)).toContain("Proposed: 0 merges, 2 prunes, 0 conflicts, 1 rewrites.");
    const after = await memory.getAll({ userId: "alice", showExpired: true });
    expect(after).toEqual(before);
  });

  it("pins the clock with now and takes a policy", async () => {
    const early = await memory.dream.plan({ userId: "alice" }, { now: "2026-11-02T00:00:00Z" });
    expect(early.stats.deletes.expired).toBe(0);
    const strict = await memory.dream.plan(
      { userId: "alice" },
      {
        now: new Date("2026-11-02T00:00:00Z"),
        policy: await resolvePolicy({ config: { categories: { operational: { ttlDays: 0.5 } } } }),
      },
    );
    expect(strict.stats.deletes.expired).toBe(1);
    const resolved = await resolvePolicy({ config: { maxLength: 5 } });
    const flagged = await memory.dream.plan({ userId: "alice" }, { policy: resolved });
    expect(flagged.policy).toBe(resolved);
  });

  it("requires a scope and a valid clock", async () => {
    const missing = await memory.dream.plan({}).catch((error: unknown) => error);
    expect(isLucidError(missing, "SCOPE_REQUIRED")).toBe(true);
    const bad = await memory.dream
      .plan({ userId: "alice" }, { now: "yesterday-ish" })
      .catch((error: unknown) => error);
    expect(isLucidError(bad, "INVALID_ARGUMENT")).toBe(true);
  });
});

describe("loadSnapshot", () => {
  it("pages through a scope oldest first with the store's vectors", async () => {
    const snapshot = await loadSnapshot(context.store, {
      scope: { user_id: "pager" },
      now: "2026-11-30T12:00:00.000Z",
      pageSize: 7,
    });
    expect(snapshot.memories).toHaveLength(25);
    const createdAts = snapshot.memories.map((m) => m.createdAt);
    expect([...createdAts].sort()).toEqual(createdAts);
    const first = snapshot.memories[0];
    const stored = await context.store.getEmbeddings([first?.id ?? ""]);
    const vector = snapshot.embedding(first?.id ?? "");
    const original = stored.get(first?.id ?? "") as Float32Array;
    const norm = Math.hypot(...original);
    expect([...(vector ?? [])].map((v) => v.toFixed(5))).toEqual(
      [...original].map((v) => (v / norm).toFixed(5)),
    );
    const neighbours = snapshot.neighbours(first?.id ?? "", 3);
    expect(neighbours).toHaveLength(3);
    expect(neighbours.map((n) => n.id)).not.toContain(first?.id);
  });

  it("marks pinned memories and reads confidence", async () => {
    const snapshot = await loadSnapshot(context.store, {
      scope: { user_id: "alice" },
      now: "2026-11-30T12:00:00.000Z",
    });
    expect(snapshot.memories.filter((m) => m.pinned).map((m) => m.text)).toEqual(["User's editor is Neovim"]);
  });
});
