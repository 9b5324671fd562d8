/**
 * Mem0's data as it comes out of Mem0: a getAll dump, its platform's list shape, and the Markdown
 * file its export skill writes — read by `importMemories` without reshaping.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Memory, openMemory } from "../../src/index.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";

const embedder = scriptedEmbedder(3, (text) => [1, text.length % 7, text.includes("tea") ? 1 : 0]);
let memory: Memory;

beforeAll(async () => {
  memory = await openMemory({ path: ":memory:", embedder });
});
afterAll(async () => {
  await memory.close();
});

describe("importMemories on Mem0 data", () => {
  it("reads a getAll dump as it is, with Mem0's field names and extras", async () => {
    const dump = {
      results: [
        {
          id: "5f0c1a2e-0000-4000-8000-000000000001",
          memory: "Prefers oolong tea in the afternoon",
          hash: "0c3f…",
          metadata: { source: "chat" },
          categories: ["food"],
          created_at: "2025-03-01T10:00:00.000Z",
          updated_at: "2025-03-02T10:00:00.000Z",
          user_id: "mira",
          score: 0.83,
        },
        {
          id: "5f0c1a2e-0000-4000-8000-000000000002",
          memory: "Works in Porto",
          user_id: 42,
          categories: ["work", "location"],
        },
      ],
    };
    const result = await memory.importMemories(dump);
    expect(result).toMatchObject({ imported: 2, failed: 0 });
    expect(await memory.get("5f0c1a2e-0000-4000-8000-000000000001")).toMatchObject({
      memory: "Prefers oolong tea in the afternoon",
      createdAt: "2025-03-01T10:00:00.000Z",
      updatedAt: "2025-03-02T10:00:00.000Z",
      user_id: "mira",
      metadata: { source: "chat", category: "food", categories: ["food"] },
    });
    const second = await memory.get("5f0c1a2e-0000-4000-8000-000000000002");
    expect(second).toMatchObject({ user_id: "42", metadata: { categories: ["work", "location"] } });
    expect(second?.metadata).not.toHaveProperty("category");
  });

  it("reads the Markdown file Mem0's export skill writes, into the scope given", async () => {
    const exported = [
      "---",
      "id: md-1",
      "created_at: 2025-06-01T09:30:00Z",
      "type: decision",
      "confidence: 0.9",
      "branch: main",
      "files: src/app.ts, src/db.ts",
      "categories: ",
      "---",
      "The team uses pnpm workspaces",
      "",
      "---",
      "id: md-2",
      "created_at: 2025-06-02T09:30:00Z",
      "type: ",
      "confidence: ",
      "branch: ",
      "files: ",
      "categories: tooling",
      "---",
      "Releases are cut from main on Tuesdays",
      "",
      "---",
      "id: md-3",
      "created_at: ",
      "---",
      "",
    ].join("\n");
    const result = await memory.importMemories(exported, { userId: "team" });
    expect(result).toMatchObject({ imported: 2, failed: 1 });
    expect(result.items.find((item) => item.status === "failed")).toMatchObject({
      line: 23,
      error: { code: "EMPTY_TEXT" },
    });
    expect(await memory.get("md-1")).toMatchObject({
      memory: "The team uses pnpm workspaces",
      createdAt: "2025-06-01T09:30:00.000Z",
      user_id: "team",
      metadata: { category: "decision", confidence: 0.9, branch: "main", files: ["src/app.ts", "src/db.ts"] },
    });
    expect((await memory.get("md-2"))?.metadata).toMatchObject({ category: "tooling" });
  });

  it("imports its own getAll output, expiry and all, as Mem0 data", async () => {
    const source = await openMemory({ path: ":memory:", embedder });
    await source.add("Pass expires at the end of the year", { userId: "ro", expirationDate: "2099-12-31" });
    await source.add("Ro likes jazz", { userId: "ro" });
    const dump = await source.getAll({ userId: "ro" });
    await source.close();
    expect(await memory.importMemories(dump)).toMatchObject({ imported: 2, failed: 0 });
    const copied = await memory.getAll({ userId: "ro" });
    expect(copied.results.map((item) => item.expiration_date).sort()).toEqual(["2099-12-31", undefined]);
  });

  it("reports a bad entry of a text by its line and imports the rest", async () => {
    const jsonl = [
      '{"text": "Line one", "user_id": "lines"}',
      "{oops",
      '{"memory": "Line three", "user_id": "lines"}',
    ].join("\n");
    const result = await memory.importMemories(jsonl);
    expect(result).toMatchObject({ imported: 2, failed: 1 });
    expect(result.items.find((item) => item.status === "failed")).toMatchObject({
      line: 2,
      error: { code: "INVALID_LINE", message: expect.stringContaining("not valid JSON") },
    });
  });

  it("refuses what is none of these, and reports a record that is not an object", async () => {
    await expect(memory.importMemories({ memories: [] } as never)).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    const result = await memory.importMemories([42, { memory: "Fine", user_id: "odd" }] as never);
    expect(result).toMatchObject({ imported: 1, failed: 1 });
  });
});
