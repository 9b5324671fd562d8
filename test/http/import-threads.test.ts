/**
 * Issue 33, hole 2: a thread is one scope's. Alice's key imports a record into the thread of bob's
 * run (its name is bob's scope: guessable) — it lands in alice's own thread of that name, so neither
 * user's keyword window holds the other's words: alice cannot learn by searching what bob said, nor
 * plant words into bob's conversation. One import that puts two scopes in one thread is refused
 * whole (400), nothing written.
 */

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestServer, type TestServer } from "./rest-server.js";

const BOBS_THREAD = "run:user_id=bob&run_id=trip";

describe("an import into another user's thread, through POST /lucid/v1/import", () => {
  let server: TestServer & { keys: string[] };
  let alice: string;
  let bob: string;

  const ndjson = (...records: unknown[]) => `${records.map((record) => JSON.stringify(record)).join("\n")}\n`;
  const importAs = (key: string, body: string) =>
    server.call("/lucid/v1/import", {
      method: "POST",
      key,
      body,
      headers: { "Content-Type": "application/x-ndjson" },
    });
  /**
   * The memories a search finds by keyword (their window holds a query word), by text. Every
   * candidate is asked for (threshold 0), since BM25's scores move with any write to the store.
   */
  const search = async (key: string, query: string) => {
    const response = await server.call("/v3/memories/search", {
      method: "POST",
      key,
      body: { query, threshold: 0, top_k: 100, explain: true },
    });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    type Result = { memory: string; score_breakdown: { matchedBy: string[] } };
    return (response.body as { results: Result[] }).results
      .filter((result) => result.score_breakdown.matchedBy.includes("keyword"))
      .map((result) => result.memory)
      .sort();
  };
  const everything = async (user: string) =>
    (await server.memory.getAll({ userId: user })).results.map((item) => [item.id, item.memory]).sort();

  beforeAll(async () => {
    server = await startTestServer({ keys: [{ user_id: "alice" }, { user_id: "bob" }] });
    [alice, bob] = server.keys as [string, string];
    await server.memory.add(
      [
        { role: "user", content: "Which city for the anniversary?" },
        { role: "assistant", content: "Lisbon, in the old tram quarter" },
      ],
      { userId: "bob", runId: "trip" },
    );
  });
  afterAll(async () => {
    await server.close();
  });

  it("keeps alice's record out of bob's thread: neither sees the other's words", async () => {
    const bobsQueries = ["anniversary", "Lisbon tram", "walrus vault"];
    const bobBefore = await everything("bob");
    const searchesBefore = await Promise.all(bobsQueries.map((query) => search(bob, query)));
    const bobs = bobBefore.map(([, text]) => text).sort();
    expect(searchesBefore).toEqual([bobs, bobs, []]);
    const response = await importAs(
      alice,
      ndjson(
        { text: "The vault code is walrus", thread: BOBS_THREAD, thread_position: 2 },
        { text: "Probe before the answer", thread: BOBS_THREAD, thread_position: 0 },
      ),
    );
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ imported: 2, failed: 0 });
    // What only bob's memories hold is not found through alice's records' windows.
    expect(await search(alice, "Lisbon")).toEqual([]);
    expect(await search(alice, "anniversary tram")).toEqual([]);
    // Bob's memories, and what his searches find, are as they were: nothing of alice's words reaches them.
    expect(await everything("bob")).toEqual(bobBefore);
    expect(await Promise.all(bobsQueries.map((query) => search(bob, query)))).toEqual(searchesBefore);
    expect(await search(bob, "walrus")).toEqual([]);
  });

  it("refuses an import that puts two of the key's scopes in one thread, writing nothing", async () => {
    const before = await everything("alice");
    const response = await importAs(
      alice,
      ndjson(
        { text: "Kite festival on Saturday", thread: "call:kites", thread_position: 0 },
        { text: "Bring the red kite", agent_id: "planner", thread: "call:kites", thread_position: 1 },
        { text: "Unthreaded and fine" },
      ),
    );
    expect(response.status).toBe(400);
    const { code, details } = response.body as { code: string; details: { failures: { index: number }[] } };
    expect(code).toBe("INVALID_ARGUMENT");
    expect(details.failures.map((failure) => failure.index)).toEqual([0, 1]);
    expect(await everything("alice")).toEqual(before);
  });
});
