import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryContext } from "../../src/core/context.js";
import { type Memory, openMemory } from "../../src/index.js";
import { importOpenClawRecalls } from "../../src/sleep/import-openclaw.js";
import { MAX_RECALL_ENTRIES, workspaceRecalls } from "../../src/sleep/record-recalls.js";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";

const WORKSPACE = "/home/ana/.openclaw/workspace";
const token = createFakeSecrets(5)["github-pat"]?.() ?? "";
let memory: Memory;
let context: MemoryContext;

/** An entry as OpenClaw's short-term-recall.json holds it. */
const entry = (path: string, start: number, end: number, extra: Record<string, unknown> = {}) => ({
  key: `memory:${path}:${start}:${end}`,
  path,
  startLine: start,
  endLine: end,
  source: "memory",
  snippet: "Travel: book the ryokan in Kyoto by March",
  recallCount: 4,
  dailyCount: 0,
  groundedCount: 0,
  totalScore: 3.6,
  maxScore: 0.95,
  firstRecalledAt: "2026-11-01T09:00:00.000Z",
  lastRecalledAt: "2026-11-04T09:00:00.000Z",
  queryHashes: ["a1a1a1a1a1a1", "b2b2b2b2b2b2", "c3c3c3c3c3c3"],
  recallDays: ["2026-11-01", "2026-11-02", "2026-11-04"],
  conceptTags: ["travel", "ryokan", "kyoto"],
  ...extra,
});

function store(entries: Record<string, unknown>[]): string {
  return JSON.stringify({
    version: 1,
    updatedAt: "2026-11-04T09:00:00.000Z",
    entries: Object.fromEntries(entries.map((each) => [(each as { key: string }).key, each])),
  });
}

beforeAll(async () => {
  memory = await openMemory({ path: ":memory:", embedder: scriptedEmbedder(3, () => [1, 0, 0]) });
  context = await memory.ready();
});
afterAll(async () => {
  await memory.close();
});

describe("importing OpenClaw's recall store", () => {
  it("keeps each short-term entry's evidence, and skips the rest with why", async () => {
    const text = store([
      entry("memory/2026-11-01.md", 3, 3),
      entry("memory/2026-11-02.md", 5, 6, {
        dailyCount: 2,
        snippet: `deploy key ${token} for the trip site`,
      }),
      entry("MEMORY.md", 2, 2),
      entry("memory/2026-11-03.md", 1, 1, {
        snippet: "- Candidate: x\n confidence: 0.9\n evidence: memory/a.md\n recalls: 3\n status: staged",
      }),
      entry("memory/2026-11-03.md", 0, 1),
      {
        key: "memory:memory/2026-11-05.md:1:1",
        path: "memory/2026-11-05.md",
        startLine: 1,
        endLine: 1,
        snippet: "x y z",
      },
    ]);
    const result = await importOpenClawRecalls(context, WORKSPACE, text);
    expect(result.imported).toBe(2);
    expect(result.skipped.map((skip) => skip.reason)).toEqual([
      "not a short-term note",
      "contaminated (staged-candidate)",
      "bad line range",
      "no lastRecalledAt",
    ]);
    const entries = await workspaceRecalls(context, WORKSPACE);
    const ryokan = entries.find((each) => each.path === "memory/2026-11-01.md");
    expect(ryokan).toMatchObject({
      recallCount: 4,
      totalScore: 3.6,
      userQueryHashes: ["a1a1a1a1a1a1", "b2b2b2b2b2b2", "c3c3c3c3c3c3"],
      recallDays: ["2026-11-01", "2026-11-02", "2026-11-04"],
    });
    // Daily signals were mixed into its query hashes: none of them is taken for a person's question.
    const mixed = entries.find((each) => each.path === "memory/2026-11-02.md");
    expect(mixed?.userQueryHashes).toEqual([]);
    expect(mixed?.snippet).toBe("deploy key [REDACTED:github-pat] for the trip site");
    expect(JSON.stringify(await context.store.listRecalls(WORKSPACE))).not.toContain(token);
  });

  it("changes nothing when run again, keeping what Lucid recorded since", async () => {
    const again = await importOpenClawRecalls(
      context,
      WORKSPACE,
      store([entry("memory/2026-11-01.md", 3, 3)]),
    );
    expect(again).toMatchObject({ imported: 0, kept: 1 });
  });

  it(`keeps to the cap of ${MAX_RECALL_ENTRIES} records, evicting the least recently recalled`, async () => {
    const workspace = "/home/bo/.openclaw/workspace";
    const count = MAX_RECALL_ENTRIES + 8;
    // Entry n was last recalled n minutes after midnight: entries 0–7 are the oldest.
    const entries = Array.from({ length: count }, (_, n) =>
      entry(`memory/2026-10-${String(1 + (n % 28)).padStart(2, "0")}.md`, n + 1, n + 1, {
        lastRecalledAt: new Date(Date.parse("2026-11-04T00:00:00.000Z") + n * 60_000).toISOString(),
      }),
    );
    const result = await importOpenClawRecalls(context, workspace, store(entries));
    expect(result).toMatchObject({ imported: count, kept: 0, evicted: 8, skipped: [] });
    const kept = await workspaceRecalls(context, workspace);
    expect(kept).toHaveLength(MAX_RECALL_ENTRIES);
    expect(kept.map((each) => each.startLine).sort((a, b) => a - b)).toEqual(
      Array.from({ length: MAX_RECALL_ENTRIES }, (_, n) => n + 9),
    );
  });

  it("refuses a file that is not the recall store", async () => {
    await expect(importOpenClawRecalls(context, WORKSPACE, "{oops")).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    await expect(importOpenClawRecalls(context, WORKSPACE, '{"version":1}')).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
      message: expect.stringContaining("not OpenClaw's recall store"),
    });
  });
});
