/**
 * A store holding every kind of record, and what its read ports answer: what the transfer contract
 * and the cross-backend copy test compare between a store and its copy.
 */

import { expect } from "vitest";
import { parseFilters } from "../../../src/filters/parse-filters.js";
import type { NewMemory } from "../../../src/store/ports/memories.js";
import type { TransferRecord } from "../../../src/store/ports/transfer.js";
import type { MemoryStore } from "../../../src/store/store.js";
import { newMemory, vector } from "./harness.js";

const filter = (input: Record<string, unknown>) => parseFilters(input);
const AT = "2026-03-01T10:00:00.000Z";

/** A vector's bits, so that "equal" means bit for bit (a float that prints the same is not enough). */
export const bits = (values: Float32Array | null | undefined): string | null =>
  values == null ? null : Buffer.from(values.buffer, values.byteOffset, values.byteLength).toString("hex");

/** Values whose float32 form has no short decimal: a text round trip that rounds would change them. */
const awkward = (seed: number) => vector(1 / 3 + seed, -Math.PI / 7, 2.5e-7 * (seed + 1), 0.1 + seed / 9);

export interface FilledStore {
  /** Every memory id ever written, the deleted one included. */
  readonly ids: readonly string[];
  readonly deletedId: string;
  readonly threaded: readonly string[];
}

/** Writes every kind of record the store keeps, through the ports, as a real store would hold them. */
export async function fillEveryKind(store: MemoryStore): Promise<FilledStore> {
  const memories: NewMemory[] = [];
  const add = async (memory: NewMemory) => {
    memories.push(memory);
    await store.insertMemory(memory);
  };
  // A conversation whose turns are interleaved with other writes: its neighbours have distant seqs.
  const turn = (position: number, text: string, actorId: string) =>
    newMemory({ text, thread: "conv-1", threadPosition: position, actorId, embedding: awkward(position) });
  await add(
    newMemory({
      text: "Alice drinks oolong tea every morning",
      category: "preference",
      metadata: { mood: "calm", weight: 1.5, nested: { days: ["mon", "tue"], none: null } },
      createdAt: "2026-01-02T00:00:00.000Z",
      updatedAt: "2026-01-02T00:00:00.000Z",
      entities: [
        { key: "alice", name: "Alice", type: "person" },
        { key: "oolong", name: "Oolong", type: "thing" },
      ],
      embedding: awkward(10),
    }),
  );
  await add(turn(0, "What should I pack for Kyoto?", "Alice"));
  await add(
    newMemory({
      text: "Deploys go through staging first",
      user_id: null,
      agent_id: "ops",
      app_id: "ci",
      run_id: "run-7",
      expiresAt: "2030-01-01T00:00:00.000Z",
      embedding: awkward(20),
    }),
  );
  await add(turn(1, "An umbrella: it rains in March", "Guide"));
  await add(newMemory({ text: "Bob lives in Denver", user_id: "bob", embedding: awkward(30) }));
  await add(turn(2, "And good walking shoes for the temples", "Guide"));
  const doomed = newMemory({
    text: "Alice's old tea supplier",
    entities: [{ key: "alice", name: "Alice", type: "person" }],
    embedding: awkward(40),
  });
  await add(doomed);
  const [first] = memories;
  if (first === undefined) throw new Error("no memory written");
  await store.updateMemory(first.id, {
    text: "Alice drinks oolong tea every morning, no sugar",
    hash: "hash-of-updated",
    category: "preference",
    metadata: { mood: "calm", weight: 1.5, nested: { days: ["mon", "tue"], none: null }, sugar: false },
    updatedAt: "2026-01-05T00:00:00.000Z",
    expiresAt: null,
    embedding: awkward(11),
    entities: [
      { key: "alice", name: "Alice", type: "person" },
      { key: "oolong", name: "Oolong", type: "thing" },
      { key: "sugar", name: "sugar", type: "thing" },
    ],
  });
  for (const memory of memories) {
    await store.addHistory({
      memoryId: memory.id,
      action: "ADD",
      previousValue: null,
      newValue: memory.text,
      actor: "user",
      createdAt: memory.createdAt,
    });
  }
  await store.addHistory({
    memoryId: first.id,
    action: "UPDATE",
    previousValue: first.text,
    newValue: "Alice drinks oolong tea every morning, no sugar",
    actor: "dream:run-1",
    createdAt: "2026-01-05T00:00:00.000Z",
    changed: ["text", "metadata.sugar"],
  });
  await store.deleteMemory(doomed.id);
  await store.addHistory({
    memoryId: doomed.id,
    action: "DELETE",
    previousValue: doomed.text,
    newValue: null,
    actor: "user",
    createdAt: "2026-01-06T00:00:00.000Z",
  });

  // Messages of two sessions, interleaved, one trimmed: seqs with gaps, each session in order.
  const message = (content: string, n: number) => ({
    role: n % 2 === 0 ? "user" : "assistant",
    content,
    name: n % 2 === 0 ? "alice" : null,
    createdAt: `2026-01-07T00:00:0${n}.000Z`,
  });
  await store.addMessages("user_id=alice", [message("hello", 0), message("hi Alice", 1)], 10);
  await store.addMessages("user_id=bob", [message("hey", 2)], 10);
  await store.addMessages("user_id=alice", [message("tea?", 4), message("oolong", 5)], 3);

  // A re-embedding under way: two of the memories already have their new vector.
  await store.beginReembed({ id: "next-model", dimension: 2 });
  const unembedded = await store.listUnembedded(2);
  await store.writeReembedded(
    unembedded.map((row, i) => ({ id: row.id, hash: row.hash, embedding: vector(1 / 7 + i, -1 / 3) })),
  );

  const preimage = await store.getMemory(first.id);
  if (preimage === null) throw new Error("the first memory is gone");
  await store.insertRun(
    {
      id: "run-1",
      kind: "dream",
      scopeKey: "user_id=alice",
      scope: { user_id: "alice" },
      mode: "auto",
      plan: { version: 1, actions: [{ kind: "update", id: first.id, note: "merged" }] },
      decisions: { conflicts: {} },
      outcome: { merged: 1, ratio: 0.25 },
      startedAt: "2026-01-05T00:00:00.000Z",
      committedAt: "2026-01-05T00:00:01.000Z",
      undoneAt: null,
    },
    [
      {
        kind: "memory",
        memoryId: first.id,
        before: {
          row: preimage,
          embedding: awkward(10),
          entities: [{ key: "alice", name: "Alice", type: "person" }],
        },
        after: { hash: "hash-of-updated", updatedAt: "2026-01-05T00:00:00.000Z" },
      },
      { kind: "memory", memoryId: "created-1", before: null, after: { hash: "h", updatedAt: AT } },
      {
        kind: "file",
        path: "MEMORY.md",
        before: new Uint8Array([0xef, 0xbb, 0xbf, 0x23, 0x0d, 0x0a, 0x00, 0xff]),
        after: { sha256: "b".repeat(64) },
      },
      { kind: "file", path: "DREAMS.md", before: null, after: null },
    ],
  );
  await store.insertRun(
    {
      id: "sleep-1",
      kind: "sleep",
      scopeKey: "workspace=/ws/ana",
      scope: {},
      mode: "sweep",
      plan: {},
      decisions: {},
      outcome: {},
      startedAt: AT,
      committedAt: AT,
      undoneAt: "2026-03-02T00:00:00.000Z",
    },
    [],
  );

  await store.recordSession("user_id=alice", "s-1", "mcp", "2026-01-08T00:00:00.000Z");
  await store.recordSession("user_id=alice", "s-2", "cli", "2026-01-08T01:00:00.000Z");
  await store.recordDreamCompletion("user_id=bob", "2026-01-08T02:00:00.000Z");
  await store.recordSession("user_id=bob", "s-3", "mcp", "2026-01-08T03:00:00.000Z");
  await store.acquireLease("user_id=alice", { holder: "worker-1", host: "box", pid: 4242 }, AT, 60_000);

  await store.putRecalls("/ws/ana", [
    {
      key: "memory:memory/2026-03-01.md:3:4",
      entry: { recallCount: 2, queryHashes: ["a1"], days: ["2026-03-01"] },
      updatedAt: AT,
      recalledAt: "2026-03-01T09:00:00.000Z",
      priority: 1,
    },
    {
      key: "memory:memory/2026-03-01.md:7:7",
      entry: { recallCount: 0 },
      updatedAt: AT,
      recalledAt: AT,
      priority: 0,
    },
  ]);
  await store.putRecalls("/ws/bo", [
    { key: "memory:MEMORY.md:1:1", entry: { recallCount: 5 }, updatedAt: AT, recalledAt: AT, priority: 1 },
  ]);
  await store.putSleepState("/ws/ana", "ingest", [
    { key: "memory/2026-03-01.md", value: { offset: 12, done: true }, updatedAt: AT },
  ]);
  await store.putSleepState("/ws/ana", "backfill", [{ key: "2026-02", value: [1, "two"], updatedAt: AT }]);
  const event = (type: string, n: number) => ({
    type,
    at: `2026-03-01T10:00:0${n}.000Z`,
    data: { n, phase: "light" },
  });
  await store.appendSleepEvents("/ws/ana", [event("memory.recall.recorded", 1)]);
  await store.appendSleepEvents("/ws/bo", [event("memory.dream.completed", 2)]);
  // Kept to 2: the workspace's oldest event goes, leaving a gap in the seqs.
  await store.appendSleepEvents(
    "/ws/ana",
    [event("memory.promotion.applied", 3), event("memory.recall.recorded", 4)],
    2,
  );

  const unit = (values: readonly number[]) => {
    const norm = Math.hypot(...values);
    return new Float32Array(values.map((value) => value / norm));
  };
  const noteFile = (path: string, shortTerm: boolean) => ({
    path,
    sha256: "c".repeat(64),
    size: 120,
    mtimeMs: 1_762_333_200_000.5,
    embedder: "hash:test:3",
    shortTerm,
    indexedAt: AT,
  });
  await store.replaceNoteFile("/ws/ana", noteFile("memory/2026-03-01.md", true), [
    { startLine: 3, endLine: 4, text: "Book the ryokan in Kyoto by March", embedding: unit([1, 0.3, 0]) },
    { startLine: 7, endLine: 7, text: "Dentist moved to Thursday", embedding: unit([0, 1, 1 / 3]) },
  ]);
  await store.replaceNoteFile("/ws/ana", noteFile("MEMORY.md", false), [
    { startLine: 1, endLine: 1, text: "Long-term: Kyoto trip planned", embedding: unit([1, 1, 0]) },
  ]);
  await store.replaceNoteFile("/ws/bo", noteFile("MEMORY.md", false), [
    { startLine: 1, endLine: 2, text: "Kyoto is where Bo grew up", embedding: unit([1, 0, 0]) },
  ]);

  return {
    ids: memories.map((memory) => memory.id),
    deletedId: doomed.id,
    threaded: memories.filter((memory) => memory.thread === "conv-1").map((memory) => memory.id),
  };
}

/** What every read port returns for the filled store: equal on a copy, whatever its backend. */
export async function readEverything(store: MemoryStore, filled: FilledStore) {
  const { ids } = filled;
  const embeddings = await store.getEmbeddings(ids);
  return {
    memories: await store.getMemories(ids),
    each: await Promise.all(ids.map((id) => store.getMemory(id))),
    embeddings: ids.map((id) => bits(embeddings.get(id))),
    entities: await Promise.all(ids.map((id) => store.getEntityLinks(id))),
    history: await Promise.all(ids.map((id) => store.listHistory(id))),
    messages: [await store.listMessages("user_id=alice"), await store.listMessages("user_id=bob")],
    run: await store.getRun("run-1"),
    sleepRun: await store.getRun("sleep-1"),
    runs: await store.listRuns({ limit: 10 }),
    gates: [await store.dreamGateState("user_id=alice"), await store.dreamGateState("user_id=bob")],
    recalls: [await store.listRecalls("/ws/ana"), await store.listRecalls("/ws/bo")],
    sleepState: [
      await store.listSleepState("/ws/ana", "ingest"),
      await store.listSleepState("/ws/ana", "backfill"),
    ],
    sleepEvents: [await store.listSleepEvents("/ws/ana"), await store.listSleepEvents("/ws/bo")],
    noteFiles: [await store.listNoteFiles("/ws/ana"), await store.listNoteFiles("/ws/bo")],
    // Similarities to 6 places: SQLite computes them in float32, PostgreSQL in float64.
    notesDense: (await store.searchNotesDense("/ws/ana", new Float32Array([1, 0.2, 0]), 5)).map((hit) => ({
      ...hit,
      similarity: hit.similarity.toFixed(6),
    })),
    embedder: await store.embedderStamp(),
    pending: await store.pendingReembed(),
    unembedded: (await store.listUnembedded(10)).map((row) => row.id),
    thread: await store.nextThreadPosition("conv-1", { user_id: "alice" }),
    // In no particular order: by id.
    threadRows: (await store.candidateRows(filled.threaded, { withText: true })).sort((a, b) =>
      a.id.localeCompare(b.id),
    ),
    speakers: (
      await store.speakersNamed({ filter: filter({ user_id: "alice" }), names: ["guide", "Alice"] })
    ).sort(),
  };
}

/** Searches whose hits must be the same ids, in the same order, on a copy. */
export async function searchIds(store: MemoryStore) {
  const alice = filter({ user_id: "alice" });
  const ids = <T extends { id: string }>(hits: readonly T[]) => hits.map((hit) => hit.id);
  return {
    dense: ids(await store.searchDense({ filter: alice, vector: awkward(1), k: 10 })),
    denseAll: ids(await store.searchDense({ filter: filter({}), vector: awkward(0), k: 10 })),
    keyword: ids(await store.searchKeyword({ filter: alice, terms: ["kyoto", "tea", "rain"], k: 10 })),
    // "March" is in a neighbour's turn: found through the thread's windows.
    window: ids(await store.searchKeyword({ filter: alice, terms: ["march"], k: 10 })),
    entities: ids(await store.searchEntities({ filter: alice, keys: ["alice", "sugar"], limit: 10 })),
    notes: (await store.searchNotesKeyword("/ws/ana", ["kyoto"], 5)).map((hit) => [hit.path, hit.startLine]),
  };
}

/** Every record, with its pages as they came. */
export async function exportAll(store: MemoryStore, pageSize?: number): Promise<TransferRecord[][]> {
  const pages: TransferRecord[][] = [];
  for await (const page of store.exportRecords(pageSize === undefined ? {} : { pageSize }))
    pages.push([...page]);
  return pages;
}

/** A record's vectors as bits, so two exports compare bit for bit. */
export function comparable(records: readonly TransferRecord[]): unknown[] {
  return records.map((record) => {
    if (record.kind === "memory")
      return {
        ...record,
        embedding: bits(record.embedding),
        pendingEmbedding: bits(record.pendingEmbedding),
      };
    if (record.kind === "noteFile")
      return {
        ...record,
        chunks: record.chunks.map((chunk) => ({ ...chunk, embedding: bits(chunk.embedding) })),
      };
    if (record.kind === "run")
      return {
        ...record,
        changes: record.changes.map((change) =>
          change.kind === "memory" && change.before !== null
            ? { ...change, before: { ...change.before, embedding: bits(change.before.embedding) } }
            : change,
        ),
      };
    return record;
  });
}

/** Copies `from` into `to`, a page at a time. */
export async function copyPages(from: MemoryStore, to: MemoryStore, pageSize: number): Promise<void> {
  for await (const page of from.exportRecords({ pageSize })) await to.importRecords(page);
}

/** Writes after a copy: they work, and get sequence numbers above the copied ones. */
export async function expectWritesContinue(copy: MemoryStore, filled: FilledStore): Promise<void> {
  const [first] = filled.ids;
  if (first === undefined) throw new Error("no memory");
  const copiedHistory = await copy.listHistory(first);
  await copy.addHistory({
    memoryId: first,
    action: "UPDATE",
    previousValue: null,
    newValue: "again",
    actor: "user",
    createdAt: AT,
  });
  const history = await copy.listHistory(first);
  expect(history).toHaveLength(copiedHistory.length + 1);
  const highestCopied = Math.max(
    ...(await Promise.all(filled.ids.map((id) => copy.listHistory(id))))
      .flat()
      .filter((row) => row.newValue !== "again")
      .map((row) => row.seq),
  );
  expect(history.at(-1)?.seq).toBeGreaterThan(highestCopied);

  const copiedEvents = [
    ...(await copy.listSleepEvents("/ws/ana")),
    ...(await copy.listSleepEvents("/ws/bo")),
  ];
  const [appended] = await copy.appendSleepEvents("/ws/bo", [{ type: "memory.new", at: AT, data: {} }]);
  expect(appended?.seq).toBeGreaterThan(Math.max(...copiedEvents.map((event) => event.seq)));

  const added = newMemory({ text: "A memory written after the copy about tea", embedding: awkward(50) });
  await copy.insertMemory(added);
  const hits = await copy.searchKeyword({ filter: filter({ user_id: "alice" }), terms: ["copy"], k: 5 });
  expect(hits.map((hit) => hit.id)).toEqual([added.id]);
  await copy.addMessages(
    "user_id=alice",
    [{ role: "user", content: "later", name: null, createdAt: AT }],
    10,
  );
  expect((await copy.listMessages("user_id=alice")).at(-1)?.content).toBe("later");
  await copy.insertRun(
    {
      id: "run-after",
      kind: "dream",
      scopeKey: "user_id=alice",
      scope: { user_id: "alice" },
      mode: "auto",
      plan: {},
      decisions: {},
      outcome: {},
      startedAt: AT,
      committedAt: AT,
      undoneAt: null,
    },
    [],
  );
  expect((await copy.listRuns({ limit: 1 })).map((run) => run.id)).toEqual(["run-after"]);
}
