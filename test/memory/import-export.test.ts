import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ExportRecord, type Memory, openMemory } from "../../src/index.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("import-export");
const embedder = scriptedEmbedder(3, (text) => [text.length % 5, 1, text.includes("e") ? 1 : 0]);

async function collect(memory: Memory, filters?: Record<string, unknown>): Promise<ExportRecord[]> {
  const records: ExportRecord[] = [];
  for await (const record of memory.exportMemories(filters === undefined ? {} : { filters }))
    records.push(record);
  return records;
}

describe("importMemories and exportMemories", () => {
  let memory: Memory;
  beforeAll(async () => {
    memory = await openMemory({ path: files.path(), embedder });
  });
  afterAll(async () => {
    await memory.close();
  });

  it("imports records with their ids and timestamps, reporting bad ones by position", async () => {
    const progress: number[] = [];
    const result = await memory.importMemories(
      [
        {
          id: "m-1",
          text: "Alice likes tea",
          user_id: "alice",
          category: "preference",
          createdAt: "2024-01-02T03:04:05Z",
        },
        { text: "", user_id: "alice" },
        {
          id: "m-2",
          text: "Bob likes coffee",
          user_id: "bob",
          agent_id: "barista",
          metadata: { b: 2, a: 1 },
        },
        { id: "m-3", text: "No scope at all" },
        {
          id: "m-4",
          text: "Expiring",
          user_id: "alice",
          expiresAt: "2030-01-01T00:00:00Z",
          updatedAt: "2024-05-05T00:00:00Z",
        },
        { id: "m-5", text: "Blank category", user_id: "alice", category: " " },
      ],
      { batchSize: 2, onProgress: ({ done }) => progress.push(done) },
    );
    expect(result).toMatchObject({ imported: 3, replaced: 0, skipped: 0, failed: 3 });
    expect(
      result.items.filter((item) => item.status === "failed").map((item) => [item.index, item.error?.code]),
    ).toEqual([
      [1, "EMPTY_TEXT"],
      [3, "SCOPE_REQUIRED"],
      [5, "INVALID_ARGUMENT"],
    ]);
    expect(progress).toEqual([2, 4, 6]);
    expect(await memory.get("m-1")).toMatchObject({
      memory: "Alice likes tea",
      createdAt: "2024-01-02T03:04:05.000Z",
      updatedAt: "2024-01-02T03:04:05.000Z",
      metadata: { category: "preference" },
    });
    expect((await memory.history("m-1"))[0]).toMatchObject({ action: "ADD", actor: "import" });
  });

  it("with strict, checks every record first: one bad record refuses the import and nothing is written", async () => {
    // A store of its own: the export tests below read every memory of the shared one.
    const memory = await openMemory({ path: files.path(), embedder });
    const records = [
      { text: "Strict Sam keeps bees", user_id: "sam" },
      { text: "   ", user_id: "sam" },
      { text: "Strict Sam sails", user_id: "sam", createdAt: "not a date" },
    ];
    const refused = await memory.importMemories(records, { strict: true }).then(
      () => null,
      (error: unknown) => error,
    );
    expect(refused).toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("2 of 3 records cannot be imported, so none was"),
      details: { failures: [expect.objectContaining({ index: 1 }), expect.objectContaining({ index: 2 })] },
    });
    expect((await memory.getAll({ userId: "sam" })).results).toEqual([]);
    // The same records without strict: the good one is imported, the bad ones reported.
    const lenient = await memory.importMemories(records);
    expect(lenient).toMatchObject({ imported: 1, failed: 2 });
    const strictAndValid = await memory.importMemories([{ text: "Strict Sam rows", user_id: "sam" }], {
      strict: true,
    });
    expect(strictAndValid).toMatchObject({ imported: 1, failed: 0 });
    await memory.close();
  });

  it("skips existing ids, or replaces them with onConflict replace", async () => {
    const skipped = await memory.importMemories([
      { id: "m-1", text: "Alice likes green tea", user_id: "alice" },
    ]);
    expect(skipped).toMatchObject({ skipped: 1, imported: 0 });
    expect((await memory.get("m-1"))?.memory).toBe("Alice likes tea");
    const replaced = await memory.importMemories(
      [{ id: "m-1", text: "Alice likes green tea", user_id: "alice" }],
      {
        onConflict: "replace",
      },
    );
    expect(replaced).toMatchObject({ replaced: 1 });
    expect((await memory.get("m-1"))?.memory).toBe("Alice likes green tea");
    expect((await memory.history("m-1")).at(-1)).toMatchObject({
      action: "UPDATE",
      previous_value: "Alice likes tea",
      new_value: "Alice likes green tea",
    });
    const search = await memory.search("green tea", {
      filters: { user_id: "alice" },
      mode: "keyword",
      threshold: 0,
    });
    expect(search.results.map((item) => item.id)).toEqual(["m-1"]);
  });

  it("skips an id-less record whose text is already stored in its scope", async () => {
    const result = await memory.importMemories([
      { text: "Bob likes coffee.", user_id: "bob", agent_id: "barista" },
    ]);
    expect(result.items).toEqual([{ index: 0, status: "skipped", id: "m-2" }]);
  });

  it("exports oldest first with sorted metadata keys, optionally one scope", async () => {
    const records = await collect(memory);
    expect(records.map((record) => record.id)).toEqual(
      ["m-1", "m-2", "m-4"].sort((a, b) => {
        const at = (id: string) => records.find((record) => record.id === id)?.created_at ?? "";
        return at(a) < at(b) ? -1 : at(a) > at(b) ? 1 : a < b ? -1 : 1;
      }),
    );
    const bob = await collect(memory, { user_id: "bob" });
    expect(bob).toHaveLength(1);
    expect(JSON.stringify(bob[0])).toMatch(
      /^\{"id":"m-2","text":"Bob likes coffee","user_id":"bob","agent_id":"barista","metadata":\{"a":1,"b":2\},"created_at":/,
    );
    const expiring = records.find((record) => record.id === "m-4");
    expect(expiring).toMatchObject({
      expires_at: "2030-01-01T00:00:00.000Z",
      updated_at: "2024-05-05T00:00:00.000Z",
    });
  });

  it("round-trips: export, import into an empty store, export again gives the same bytes", async () => {
    const first = (await collect(memory)).map((record) => JSON.stringify(record)).join("\n");
    const copy = await openMemory({ path: files.path(), embedder });
    const records = (await collect(memory)).map(({ created_at, updated_at, expires_at, ...rest }) => ({
      ...rest,
      createdAt: created_at,
      updatedAt: updated_at,
      ...(expires_at === undefined ? {} : { expiresAt: expires_at }),
    }));
    const result = await copy.importMemories(records);
    expect(result.imported).toBe(records.length);
    const second = (await collect(copy)).map((record) => JSON.stringify(record)).join("\n");
    expect(second).toBe(first);
    await copy.close();
  });
});
