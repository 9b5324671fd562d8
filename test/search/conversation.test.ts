/**
 * What a memory from a conversation knows, through the SDK: its neighbours (in its keyword window),
 * who said it (the speaker signal, and the name left out of the dense query), when (the date and
 * time signals), and that all of it survives export and import.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Embedder } from "../../src/embed/embedder.js";
import { type Memory, type MemoryItem, openMemory } from "../../src/index.js";
import { parseImportText } from "../../src/memory/import-input/parse-import-text.js";
import { fakeVector } from "../helpers/fake-openai-server.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("conversation");

/** Deterministic vectors; remembers what it was asked to embed for search. */
function recordingEmbedder(): Embedder & { queries: string[] } {
  const queries: string[] = [];
  return {
    id: "hash-16",
    dimension: 16,
    queries,
    async embed(texts, purpose) {
      if (purpose === "search") queries.push(...texts);
      return texts.map((text) => Float32Array.from(fakeVector(text, 16)));
    },
  };
}

const SESSION = [
  { role: "user", name: "Melanie", content: "What motivated you to pursue counseling?" },
  { role: "user", name: "Caroline", content: "My own journey and the support I got along the way." },
  { role: "user", name: "Melanie", content: "That is inspiring. I painted a lake sunrise yesterday." },
  { role: "user", name: "Caroline", content: "Lovely! I am off to a pottery class now." },
];

const byText = (items: readonly MemoryItem[], fragment: string) =>
  items.find((item) => item.memory.includes(fragment));

describe("memories from a conversation", () => {
  const embedder = recordingEmbedder();
  let memory: Memory;
  beforeAll(async () => {
    memory = await openMemory({ path: files.path(), embedder });
    await memory.add(SESSION, { userId: "u", createdAt: "2023-05-08T13:56:00.000Z" });
    await memory.add("Caroline joined a support group", {
      userId: "u",
      createdAt: "2023-07-01T10:00:00.000Z",
    });
  });
  afterAll(async () => {
    await memory.close();
  });

  const search = (query: string) =>
    memory.search(query, { userId: "u", topK: 10, threshold: 0, explain: true }).then((r) => r.results);

  it("records who said each message", async () => {
    const { results } = await memory.getAll({ userId: "u" });
    expect(byText(results, "My own journey")?.actor_id).toBe("Caroline");
    expect(byText(results, "support group")?.actor_id).toBeUndefined();
  });

  it("finds an answer by the words of the turn before it", async () => {
    const results = await search("Why did someone pursue counseling?");
    // The answer's own text has none of the question's words; the turn before it has them.
    const answer = byText(results, "My own journey");
    expect(answer?.score_details?.bm25Score).toBeGreaterThan(0);
    expect(answer?.score_details?.matchedBy).toContain("keyword");
    // Two turns away is outside the window; a memory outside any thread has only its own words.
    expect(byText(results, "lake sunrise")?.score_details?.bm25Score).toBe(0);
    expect(byText(results, "support group")?.score_details?.bm25Score).toBe(0);
  });

  it("keeps a neighbour's window in step when a memory is changed or deleted", async () => {
    const scratch = await openMemory({ path: files.path(), embedder });
    try {
      const { results: added } = await scratch.add(
        [
          { role: "user", content: "Which airline do you fly?" },
          { role: "user", content: "Always the cheapest one." },
        ],
        { userId: "w" },
      );
      const [question, answer] = added.map((item) => item.id);
      const score = async (query: string) =>
        (await scratch.search(query, { userId: "w", threshold: 0, explain: true })).results.find(
          (item) => item.id === answer,
        )?.score_details?.bm25Score ?? 0;
      expect(await score("airline")).toBeGreaterThan(0);
      await scratch.update(question as string, "Which train do you take?");
      expect(await score("airline")).toBe(0);
      expect(await score("train")).toBeGreaterThan(0);
      await scratch.delete(question as string);
      expect(await score("train")).toBe(0);
    } finally {
      await scratch.close();
    }
  });

  it("leaves a speaker's name out of the dense query and matches the speaker instead", async () => {
    embedder.queries.length = 0;
    const results = await search("What does Caroline do now?");
    expect(embedder.queries).toEqual(["What does do now?"]);
    expect(byText(results, "pottery")?.score_details?.speakerMatch).toBe(1);
    expect(byText(results, "lake sunrise")?.score_details?.speakerMatch).toBe(0);
    // A name nobody in the scope speaks under stays in the query.
    embedder.queries.length = 0;
    await search("What does Bob do now?");
    expect(embedder.queries).toEqual(["What does Bob do now?"]);
  });

  it("matches a month the query names against when the memory was said", async () => {
    const results = await search("What did they talk about in May 2023?");
    expect(byText(results, "pottery")?.score_details?.dateMatch).toBe(1);
    expect(byText(results, "support group")?.score_details?.dateMatch).toBe(0);
  });

  it("prefers, for a when-question, memories that state a time", async () => {
    const results = await search("When did Melanie paint a sunrise?");
    expect(byText(results, "yesterday")?.score_details?.timeMatch).toBe(1);
    expect(byText(results, "pottery")?.score_details?.timeMatch).toBe(0);
  });

  it("a run's memories form one thread across calls", async () => {
    await memory.add("We should call the florist", { userId: "u", runId: "planning" });
    await memory.add("Done, they deliver on Saturday", { userId: "u", runId: "planning" });
    const results = await search("florist");
    expect(byText(results, "deliver on Saturday")?.score_details?.bm25Score).toBeGreaterThan(0);
  });

  it("refuses an imported thread that is blank, too long, or has a bad position", async () => {
    const result = await memory.importMemories([
      { text: "blank thread", user_id: "u", thread: " " },
      { text: "long thread", user_id: "u", thread: "t".repeat(2000) },
      { text: "bad position", user_id: "u", thread: "call:x", threadPosition: -1 },
      { text: "good thread", user_id: "u", thread: "call:x", threadPosition: 3 },
    ]);
    expect(result.items.map((item) => item.status)).toEqual(["failed", "failed", "failed", "imported"]);
    expect(result.items[0]?.error?.code).toBe("INVALID_ARGUMENT");
  });

  it("keeps threads and speakers through export and import", async () => {
    const records = [];
    for await (const record of memory.exportMemories()) records.push(record);
    const answer = records.find((record) => record.text.includes("My own journey"));
    expect(answer).toMatchObject({ thread: expect.any(String), thread_position: 1, actor_id: "Caroline" });
    const copy = await openMemory({ path: files.path(), embedder });
    try {
      // As `lucid export` writes the file and `lucid import` reads it back.
      const { records: lines, errors } = parseImportText(
        records.map((record) => JSON.stringify(record)).join("\n"),
      );
      expect(errors).toEqual([]);
      await copy.importMemories(lines.map((line) => line.record));
      const { results } = await copy.search("Why did someone pursue counseling?", {
        userId: "u",
        threshold: 0,
        explain: true,
      });
      expect(byText(results, "My own journey")?.score_details?.bm25Score).toBeGreaterThan(0);
      expect(byText(results, "My own journey")?.actor_id).toBe("Caroline");
    } finally {
      await copy.close();
    }
  });
});
