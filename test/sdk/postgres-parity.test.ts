/**
 * The same Lucid on both backends: one scenario — adds, searches, an update, a delete, history, a
 * dream that merges duplicates and prunes an expired memory, its undo, an export — run through the
 * SDK on SQLite and on PostgreSQL, with every observable result compared (memory ids are random, so
 * results are compared by text). Skipped without `LUCID_PG_URL`.
 */

import { readFileSync } from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { type Memory, openMemory } from "../../src/index.js";
import { postgresTestUrl, temporaryPostgresStores } from "../helpers/postgres.js";
import { tempFiles } from "../helpers/temp-dir.js";
import { wordEmbedder } from "../helpers/word-embedder.js";

const url = postgresTestUrl();
const NOW = "2026-11-30T12:00:00.000Z";

interface Sample {
  memories: { user: string; text: string; category: string }[];
  searches: { user: string; query: string }[];
}

const sample = JSON.parse(
  readFileSync(new URL("../../examples/sample-memories.json", import.meta.url), "utf8"),
) as Sample;

/** Everything the scenario observed, ids replaced by texts. */
async function scenario(memory: Memory): Promise<Record<string, unknown>> {
  const textOf = new Map<string, string>();
  const ids = new Map<string, string>();
  for (const { user, text, category } of sample.memories) {
    const added = await memory.add(text, { userId: user, category, metadata: { source: "parity" } });
    const id = added.results[0]?.id as string;
    textOf.set(id, text);
    ids.set(text, id);
  }
  const searches = [];
  for (const { user, query } of sample.searches) {
    const { results } = await memory.search(query, { filters: { user_id: user }, topK: 5 });
    searches.push(results.map((result) => [result.memory, Number((result.score ?? 0).toFixed(3))]));
  }
  const first = sample.memories[0] as Sample["memories"][number];
  const second = sample.memories[1] as Sample["memories"][number];
  await memory.update(ids.get(first.text) as string, `${first.text}, since 2024`);
  await memory.delete(ids.get(second.text) as string);
  const history = (await memory.history(ids.get(first.text) as string)).map((entry) => [
    entry.action,
    entry.previous_value,
    entry.new_value,
    entry.changed ?? [],
  ]);

  await memory.importMemories([
    {
      id: "dup-1",
      text: "Dana drinks oolong tea every afternoon",
      user_id: "dana",
      createdAt: "2026-01-01T00:00:00Z",
    },
    {
      id: "dup-2",
      text: "Dana drinks oolong tea every afternoon",
      user_id: "dana",
      createdAt: "2026-01-02T00:00:00Z",
    },
    {
      id: "trip",
      text: "Dana is in Porto this week",
      user_id: "dana",
      createdAt: "2026-01-03T00:00:00Z",
      expiresAt: "2026-02-01T00:00:00Z",
    },
    { id: "keep", text: "Dana is allergic to peanuts", user_id: "dana", createdAt: "2026-01-04T00:00:00Z" },
  ]);
  const plan = await memory.dream.plan({ userId: "dana" }, { now: NOW });
  const actions = plan.actions.map((action) => ({
    kind: action.kind,
    ids: "ids" in action ? action.ids : [],
  }));
  const applied = await memory.dream.apply(plan);
  const after = (await memory.getAll({ userId: "dana" })).results.map((item) => item.memory).sort();
  const undone = await memory.dream.undo(applied.runId as string);
  const restored = (await memory.getAll({ userId: "dana", showExpired: true })).results
    .map((item) => [item.id, item.memory])
    .sort();
  const exported = [];
  for await (const record of memory.exportMemories({ filters: { user_id: "alice" } }))
    exported.push(record.text);
  return {
    searches,
    history,
    actions,
    applied: applied.actions.map((action) => action.status),
    after,
    undone: { restored: undone.restored },
    restored,
    exported: exported.sort(),
    total: (await memory.getAll({ userId: "alice" })).results.length,
  };
}

describe.skipIf(url === undefined)("the same scenario on SQLite and PostgreSQL", () => {
  const files = tempFiles("parity");
  const stores = temporaryPostgresStores();
  const opened: Memory[] = [];
  afterAll(async () => {
    for (const memory of opened) await memory.close();
    await stores.dropAll();
  });

  it("observes the same results, scores included", async () => {
    const sqlite = await openMemory({ path: files.path(), embedder: wordEmbedder() });
    opened.push(sqlite);
    const postgres = await openMemory({ store: await stores.make(), embedder: wordEmbedder() });
    opened.push(postgres);
    const onSqlite = await scenario(sqlite);
    const onPostgres = await scenario(postgres);
    expect(await postgres.status()).toMatchObject({ backend: { name: "postgres", ann: true } });
    expect(onPostgres).toEqual(onSqlite);
    // The scenario did what it says, on both.
    expect(onSqlite.actions).toEqual(
      expect.arrayContaining([expect.objectContaining({ kind: "delete", ids: ["trip"] })]),
    );
    expect((onSqlite.searches as unknown[][]).every((results) => results.length > 0)).toBe(true);
    expect(onSqlite.total).toBe(sample.memories.filter((m) => m.user === "alice").length - 1);
  });
});
