/**
 * `batchUpdate`: several updates in one transaction. Every change is checked and every memory found
 * before anything is written, so one bad change — an empty text, a missing id, a repeated one —
 * leaves every memory as it was.
 */
import { describe, expect, it } from "vitest";
import type { Memory } from "../../src/index.js";
import { useMemory } from "../helpers/use-memory.js";

const memory = useMemory("batch-update");

async function seeded(userId: string): Promise<[string, string]> {
  const a = await memory().add(`${userId} drinks tea`, { userId });
  const b = await memory().add(`${userId} lives in Lisbon`, { userId });
  return [a.results[0]?.id as string, b.results[0]?.id as string];
}

async function texts(store: Memory, userId: string): Promise<string[]> {
  return (await store.getAll({ userId })).results.map((item) => item.memory).sort();
}

async function codeOf(work: Promise<unknown>): Promise<string | undefined> {
  return work.then(
    () => undefined,
    (error: { code?: string }) => error.code,
  );
}

describe("batchUpdate", () => {
  it("changes texts, metadata and expiry of several memories, each with its history", async () => {
    const [tea, city] = await seeded("ana");
    const results = await memory().batchUpdate([
      { memoryId: tea, text: "ana drinks green tea" },
      { memoryId: city, metadata: { pinned: true }, expirationDate: "2030-01-01" },
    ]);
    expect(results.map((result) => result.result.id)).toEqual([tea, city]);
    expect(await texts(memory(), "ana")).toEqual(["ana drinks green tea", "ana lives in Lisbon"]);
    expect((await memory().get(city))?.metadata).toMatchObject({ pinned: true });
    expect((await memory().history(tea)).map((entry) => entry.action)).toEqual(["ADD", "UPDATE"]);
  });

  it.each([
    [
      "an empty text",
      (ids: string[]) => [
        { memoryId: ids[0], text: "ben drinks coffee" },
        { memoryId: ids[1], text: "  " },
      ],
    ],
    [
      "a missing memory",
      (ids: string[]) => [
        { memoryId: ids[0], text: "ben drinks coffee" },
        { memoryId: "no-such-id", text: "x" },
      ],
    ],
    [
      "a repeated memory",
      (ids: string[]) => [
        { memoryId: ids[0], text: "ben drinks coffee" },
        { memoryId: ids[0], text: "ben drinks milk" },
      ],
    ],
    [
      "a change with nothing to change",
      (ids: string[]) => [{ memoryId: ids[0], text: "ben drinks coffee" }, { memoryId: ids[1] }],
    ],
  ] as const)("writes nothing when one change is %s", async (kind, batch) => {
    const user = `ben-${kind.replaceAll(" ", "-")}`;
    const ids = await seeded(user);
    const before = await texts(memory(), user);
    const code = await codeOf(memory().batchUpdate(batch(ids) as never));
    expect(code).toMatch(/^(EMPTY_TEXT|MEMORY_NOT_FOUND|INVALID_ARGUMENT)$/);
    expect(await texts(memory(), user)).toEqual(before);
    expect((await memory().history(ids[0] as string)).map((entry) => entry.action)).toEqual(["ADD"]);
  });
});
