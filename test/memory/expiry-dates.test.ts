import { describe, expect, it } from "vitest";
import { createLocalEmbedder } from "../../src/embed/local/local-embedder.js";
import { openMemory } from "../../src/index.js";

/** A Memory whose clock reads `now` until `at` moves it. */
async function memoryAt(now: string, options: { timeZone?: string } = {}) {
  let current = new Date(now);
  const memory = await openMemory({
    path: ":memory:",
    embedder: createLocalEmbedder(),
    clock: { now: () => current },
    ...options,
  });
  return { memory, at: (instant: string) => (current = new Date(instant)) };
}

describe("expiration dates, as Mem0 reads them", () => {
  it("keeps a memory visible through its whole expiration day, then hides it", async () => {
    const { memory, at } = await memoryAt("2026-12-01T08:00:00Z");
    const { results } = await memory.add("The office is closed today", {
      userId: "ana",
      expirationDate: "2026-12-01",
    });
    const id = results[0]?.id ?? "";
    at("2026-12-01T23:59:59Z");
    expect((await memory.getAll({ userId: "ana" })).results.map((item) => item.id)).toEqual([id]);
    at("2026-12-02T00:00:00Z");
    expect((await memory.getAll({ userId: "ana" })).total).toBe(0);
    expect((await memory.getAll({ userId: "ana", showExpired: true })).total).toBe(1);
    await memory.close();
  });

  it("ends the day in the configured time zone", async () => {
    const { memory, at } = await memoryAt("2026-12-01T08:00:00Z", { timeZone: "America/New_York" });
    await memory.add("Parking is free today", { userId: "ana", expirationDate: "2026-12-01" });
    // 23:30 in New York is already 2 December in UTC: still visible.
    at("2026-12-02T04:30:00Z");
    expect((await memory.getAll({ userId: "ana" })).total).toBe(1);
    at("2026-12-02T05:00:00Z");
    expect((await memory.getAll({ userId: "ana" })).total).toBe(0);
    await memory.close();
  });

  it("returns Mem0's expiration_date beside the instant", async () => {
    const { memory } = await memoryAt("2026-12-01T08:00:00Z", { timeZone: "Europe/Paris" });
    const { results } = await memory.add("Trial ends at the end of the year", {
      userId: "ana",
      expirationDate: "2026-12-31",
    });
    expect(await memory.get(results[0]?.id ?? "")).toMatchObject({
      expiresAt: "2026-12-31T23:00:00.000Z",
      expiration_date: "2026-12-31",
    });
    await memory.close();
  });

  it("accepts a timestamp with its offset as that instant", async () => {
    const { memory } = await memoryAt("2026-12-01T08:00:00Z");
    const { results } = await memory.add("Maintenance window", {
      userId: "ana",
      expirationDate: "2026-12-01T18:00:00+02:00",
    });
    expect((await memory.get(results[0]?.id ?? ""))?.expiresAt).toBe("2026-12-01T16:00:00.000Z");
    await memory.close();
  });

  it.each(["12/31/2099", "2099-02-30", "2100-02-29", "2099-12-31T10:00:00", "tomorrow", "2099-13-01"])(
    "refuses %s with the value named, and stores nothing",
    async (value) => {
      const { memory } = await memoryAt("2026-12-01T08:00:00Z");
      await expect(
        memory.add("Never stored", { userId: "ana", expirationDate: value }),
      ).rejects.toMatchObject({
        code: "INVALID_ARGUMENT",
        message: expect.stringContaining(JSON.stringify(value)),
      });
      expect((await memory.getAll({ userId: "ana", showExpired: true })).total).toBe(0);
      await memory.close();
    },
  );

  it("reads update's expirationDate the same way", async () => {
    const { memory } = await memoryAt("2026-12-01T08:00:00Z");
    const { results } = await memory.add("Offer", { userId: "ana" });
    const id = results[0]?.id ?? "";
    await expect(memory.update(id, { expirationDate: "2099-02-30" })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    expect((await memory.update(id, { expirationDate: "2096-02-29" })).result.expiration_date).toBe(
      "2096-02-29",
    );
    await memory.close();
  });

  it("refuses an unknown time zone when opening", async () => {
    await expect(memoryAt("2026-12-01T08:00:00Z", { timeZone: "Mars/Olympus" })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });
});
