/**
 * The smaller differences a program moving from `mem0ai/oss` would hit, through the SDK.
 */
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createLocalEmbedder } from "../../src/embed/local/local-embedder.js";
import { type Memory, openMemory } from "../../src/index.js";

let memory: Memory;
let now = new Date("2026-12-01T09:00:00Z");

beforeAll(async () => {
  memory = await openMemory({ path: ":memory:", embedder: createLocalEmbedder(), clock: { now: () => now } });
});
afterAll(async () => {
  await memory.close();
});

async function addOne(text: string, userId = "parity"): Promise<string> {
  return (await memory.add(text, { userId })).results[0]?.id ?? "";
}

describe("update, as Mem0 callers write it", () => {
  it("refuses metadata: null with a LucidError, and changes nothing", async () => {
    const id = await addOne("Parity keeps notes in Obsidian");
    await expect(
      memory.update(id, { metadata: null as unknown as Record<string, unknown> }),
    ).rejects.toMatchObject({
      name: "LucidError",
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("metadata is an object of keys to merge"),
    });
    expect((await memory.get(id))?.memory).toBe("Parity keeps notes in Obsidian");
  });

  it("accepts Mem0's deprecated data, warning once", async () => {
    const warning = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      const id = await addOne("Parity drinks tea");
      const updated = await memory.update(id, { data: "Parity drinks green tea" });
      expect(updated.result.memory).toBe("Parity drinks green tea");
      await memory.update(id, { data: "Parity drinks jasmine tea" });
      expect(warning).toHaveBeenCalledTimes(1);
      expect(String(warning.mock.calls[0]?.[0])).toContain("use { text }");
      await expect(memory.update(id, { text: "a", data: "b" })).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
      });
    } finally {
      warning.mockRestore();
    }
  });

  it("names an unknown key instead of doing nothing", async () => {
    const id = await addOne("Parity works on Fridays");
    await expect(
      memory.update(id, { expirationdate: "2099-01-01" } as unknown as { text: string }),
    ).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining('"expirationdate"'),
    });
  });
});

describe("add results", () => {
  it("carry the event in metadata as well, as Mem0's do", async () => {
    const first = await memory.add("Parity's cat is called Miso", { userId: "parity" });
    expect(first.results[0]).toMatchObject({ event: "ADD", metadata: { event: "ADD" } });
    const again = await memory.add("Parity's cat is called Miso", { userId: "parity" });
    expect(again.results[0]).toMatchObject({ event: "NONE", metadata: { event: "NONE" } });
    // The event is reported, not stored.
    expect((await memory.get(first.results[0]?.id ?? ""))?.metadata).not.toHaveProperty("event");
  });

  it("take Mem0's timestamp (Unix seconds) as the creation time", async () => {
    const { results } = await memory.add("Parity moved to Lisbon", {
      userId: "parity",
      timestamp: 1_700_000_000,
    });
    expect((await memory.get(results[0]?.id ?? ""))?.createdAt).toBe("2023-11-14T22:13:20.000Z");
    await expect(
      memory.add("Twice", { userId: "parity", timestamp: 1_700_000_000, createdAt: "2020-01-01T00:00:00Z" }),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(
      memory.add("Millis", { userId: "parity", timestamp: 1_700_000_000_000 }),
    ).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("looks like milliseconds"),
    });
  });
});

describe("search", () => {
  it("orders equal scores by updatedAt, then createdAt, newest first", async () => {
    const ids: string[] = [];
    for (const [index, day] of ["2026-11-01", "2026-11-03", "2026-11-02"].entries()) {
      now = new Date(`${day}T09:00:00Z`);
      // The same text under three agents of one user: every signal scores them alike.
      const { results } = await memory.add("ties zebra quartz", {
        userId: "ties",
        agentId: `agent-${index}`,
      });
      ids.push(results[0]?.id ?? "");
    }
    now = new Date("2026-12-01T09:00:00Z");
    const { results } = await memory.search("ties zebra quartz", {
      userId: "ties",
      mode: "keyword",
      explain: true,
    });
    const scores = results.map((item) => item.score);
    expect(new Set(scores).size).toBe(1);
    expect(results.map((item) => item.id)).toEqual([ids[1], ids[2], ids[0]]);
  });

  it("evaluates expiry as of referenceDate", async () => {
    const id = (
      await memory.add("Parity's trial licence", { userId: "expiring", expirationDate: "2026-12-15" })
    ).results[0]?.id;
    expect(
      (await memory.search("trial licence", { userId: "expiring" })).results.map((item) => item.id),
    ).toEqual([id]);
    const later = await memory.search("trial licence", { userId: "expiring", referenceDate: "2026-12-16" });
    expect(later.results).toEqual([]);
    const lastDay = await memory.getAll({ userId: "expiring", referenceDate: "2026-12-15" });
    expect(lastDay.total).toBe(1);
    await expect(
      memory.search("x", { userId: "expiring", referenceDate: "15/12/2026" }),
    ).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });

  it("says once that rerank: true has no reranker to use", async () => {
    const warning = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      await memory.search("tea", { userId: "parity", rerank: true });
      await memory.search("tea", { userId: "parity", rerank: true });
      expect(warning).toHaveBeenCalledTimes(1);
      expect(String(warning.mock.calls[0]?.[0])).toContain("no reranker");
    } finally {
      warning.mockRestore();
    }
  });
});
