/**
 * Issue 11, minor: filters with 50k OR branches or 100k `in` values failed with `STORE_FAILED: too
 * many SQL variables`. They are `INVALID_FILTER` naming the limit; a filter at the limit runs.
 */
import { beforeAll, describe, expect, it } from "vitest";
import { MAX_FILTER_CONDITIONS, MAX_FILTER_VALUES } from "../../src/filters/parse-filters.js";
import { useMemory } from "../helpers/use-memory.js";

const memory = useMemory("filter-limits");
beforeAll(async () => {
  await memory().add("Alice drinks green tea", { userId: "alice", metadata: { tag: "t7" } });
});

const branches = (count: number) => Array.from({ length: count }, (_, i) => ({ tag: `t${i}` }));
const values = (count: number) => Array.from({ length: count }, (_, i) => `t${i}`);

describe("filter size limits", () => {
  it.each([
    ["50,000 OR branches", { OR: branches(50_000) }, /50000 conditions; at most 1000/],
    ["100,000 in values", { tag: { in: values(100_000) } }, /100000 values; at most 10000/],
    ["1,001 conditions", { OR: branches(MAX_FILTER_CONDITIONS + 1) }, /at most 1000 are allowed/],
  ])("refuses %s with INVALID_FILTER", async (_case, filters, message) => {
    for (const read of [
      () => memory().getAll({ userId: "alice", filters }),
      () => memory().search("tea", { userId: "alice", filters }),
    ]) {
      await expect(read()).rejects.toMatchObject({
        code: "INVALID_FILTER",
        message: expect.stringMatching(message),
      });
    }
  });

  it("runs filters at the limits, on every read", async () => {
    for (const filters of [
      { OR: branches(MAX_FILTER_CONDITIONS) },
      { tag: { in: values(MAX_FILTER_VALUES) } },
      {
        AND: [
          { tag: { in: values(MAX_FILTER_VALUES / 2) } },
          { tag: { nin: values(MAX_FILTER_VALUES / 2).slice(8) } },
        ],
      },
    ]) {
      const page = await memory().getAll({ userId: "alice", filters });
      expect(page.results.map((item) => item.memory)).toEqual(["Alice drinks green tea"]);
      const found = await memory().search("green tea", { userId: "alice", filters, threshold: 0 });
      expect(found.results.map((item) => item.memory)).toEqual(["Alice drinks green tea"]);
      expect((await memory().deleteAll({ userId: "bob", filters })).deleted).toBe(0);
    }
  });
});
