import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryContext } from "../../src/core/context.js";
import { type Memory, openMemory } from "../../src/index.js";
import { rankForPromotion } from "../../src/sleep/deep-rank.js";
import { MAX_RECALL_ENTRIES, recordRecalls, workspaceRecalls } from "../../src/sleep/record-recalls.js";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("sleep-record");
const workspace = join(files.dir, "workspace");
const token = createFakeSecrets(3)["github-pat"]?.() ?? "";
let memory: Memory;
let context: MemoryContext;

beforeAll(async () => {
  mkdirSync(join(workspace, "memory", "dreaming", "deep"), { recursive: true });
  writeFileSync(
    join(workspace, "memory", "2026-11-04.md"),
    [
      "# 2026-11-04", // 1
      "## Travel", // 2
      "- book the ryokan in Kyoto by March", // 3
      `- deploy token for the trip site: ${token}`, // 4
      "- Candidate: use pnpm", // 5
      "<!-- openclaw-memory-promotion:memory:memory/2026-11-01.md:1:1 -->", // 6
    ].join("\n"),
  );
  writeFileSync(join(workspace, "memory", "dreaming", "deep", "2026-11-04.md"), "- promoted things\n");
  writeFileSync(join(workspace, "MEMORY.md"), "# Memory\n- Ana lives in Porto\n");
  memory = await openMemory({ path: files.path(), embedder: scriptedEmbedder(3, () => [1, 0, 0]) });
  context = await memory.ready();
});
afterAll(async () => {
  await memory.close();
});

describe("recording recall signals", () => {
  it("records short-term hits with their snippet from the file, and refuses the rest with why", async () => {
    const result = await recordRecalls(
      context,
      { workspace, query: "where do we stay in Kyoto?", at: "2026-11-05T09:00:00Z" },
      [
        { path: "memory/2026-11-04.md", startLine: 3, endLine: 3, score: 0.91 },
        { path: "MEMORY.md", startLine: 2, endLine: 2, score: 0.8 },
        { path: "memory/dreaming/deep/2026-11-04.md", startLine: 1, endLine: 1, score: 0.8 },
        { path: "memory/2026-11-04.md", startLine: 6, endLine: 6, score: 0.5 },
        { path: "memory/2026-11-04.md", startLine: 40, endLine: 41, score: 0.5 },
        { path: "../outside/2026-11-04.md", startLine: 1, endLine: 1, score: 0.5 },
      ],
    );
    expect(result.recorded).toBe(1);
    expect(result.skipped.map((each) => each.reason)).toEqual([
      "not-short-term",
      "not-short-term",
      "missing-lines",
      "not-short-term",
      "promotion-marker",
    ]);
    const [entry] = await workspaceRecalls(context, workspace);
    expect(entry).toMatchObject({
      key: "memory:memory/2026-11-04.md:3:3",
      snippet: "- book the ryokan in Kyoto by March",
      recallCount: 1,
      recallDays: ["2026-11-05"],
    });
  });

  it("never stores a credential a note holds", async () => {
    await recordRecalls(context, { workspace, query: "trip site", at: "2026-11-05T10:00:00Z" }, [
      { path: "memory/2026-11-04.md", startLine: 4, endLine: 4, score: 0.7 },
    ]);
    const entries = await workspaceRecalls(context, workspace);
    const withToken = entries.find((entry) => entry.startLine === 4);
    expect(withToken?.snippet).toBe("- deploy token for the trip site: [REDACTED:github-pat]");
    expect(JSON.stringify(await context.store.listRecalls(workspace))).not.toContain(token);
  });

  it("feeds the deep ranking once a range keeps being recalled", async () => {
    for (const [index, query] of [
      "kyoto stay",
      "ryokan booking",
      "march trip plans",
      "japan hotel",
    ].entries()) {
      await recordRecalls(context, { workspace, query, at: `2026-11-0${6 + index}T09:00:00Z` }, [
        { path: "memory/2026-11-04.md", startLine: 3, endLine: 3, score: 0.92 },
      ]);
    }
    const ranked = rankForPromotion(await workspaceRecalls(context, workspace), {
      now: "2026-11-10T09:00:00Z",
    });
    expect(ranked.map((scored) => scored.entry.key)).toEqual(["memory:memory/2026-11-04.md:3:3"]);
    expect(ranked[0]?.entry.recallCount).toBe(5);
  });

  it(`keeps at most ${MAX_RECALL_ENTRIES} records a workspace, evicting the least recently recalled`, async () => {
    const big = join(files.dir, "big");
    mkdirSync(join(big, "memory"), { recursive: true });
    const count = MAX_RECALL_ENTRIES + 10;
    writeFileSync(
      join(big, "memory", "2026-11-01.md"),
      Array.from({ length: count }, (_, index) => `- fact number ${index + 1} of the day`).join("\n"),
    );
    const hit = (line: number) => ({
      path: "memory/2026-11-01.md",
      startLine: line,
      endLine: line,
      score: 0.5,
    });
    const lines = (from: number, to: number) =>
      Array.from({ length: to - from + 1 }, (_, n) => hit(from + n));
    const record = (query: string, at: string, given: ReturnType<typeof hit>[]) =>
      recordRecalls(context, { workspace: big, query, at }, given);

    // Lines 1–5 are recalled three times early on (strong but old); 6–512 once, later.
    for (const [n, at] of ["2026-11-02T09:00:00Z", "2026-11-02T10:00:00Z", "2026-11-02T11:00:00Z"].entries())
      await record(`early ${n}`, at, lines(1, 5));
    const filled = await record("later", "2026-11-03T09:00:00Z", lines(6, MAX_RECALL_ENTRIES));
    expect(filled).toMatchObject({ recorded: MAX_RECALL_ENTRIES - 5, evicted: 0 });

    // Three new ranges at the cap: each is kept and reported, and the three least recently recalled go.
    const fresh = await record("fresh", "2026-11-04T09:00:00Z", lines(513, 515));
    expect(fresh).toMatchObject({ recorded: 3, evicted: 3, skipped: [] });
    let kept = await workspaceRecalls(context, big);
    expect(kept).toHaveLength(MAX_RECALL_ENTRIES);
    const has = (line: number) => kept.some((entry) => entry.startLine === line);
    for (const line of [513, 514, 515]) expect(has(line)).toBe(true);
    expect([1, 2, 3, 4, 5].filter(has)).toHaveLength(2);

    // A range recalled again is kept fresh: recalling 4 and 5 now means the next eviction takes others.
    await record("again", "2026-11-05T09:00:00Z", [hit(4), hit(5)]);
    const next = await record("newer", "2026-11-05T10:00:00Z", [hit(516)]);
    expect(next).toMatchObject({ recorded: 1, evicted: 1 });
    kept = await workspaceRecalls(context, big);
    for (const line of [4, 5, 516]) expect(has(line)).toBe(true);
    expect(kept).toHaveLength(MAX_RECALL_ENTRIES);

    // One search naming more distinct ranges than the cap records the first 512 and says so for the rest.
    const flood = await record("flood", "2026-11-06T09:00:00Z", lines(1, count));
    expect(flood.recorded).toBe(MAX_RECALL_ENTRIES);
    expect(flood.skipped.map((each) => [each.startLine, each.reason])).toEqual(
      Array.from({ length: count - MAX_RECALL_ENTRIES }, (_, n) => [MAX_RECALL_ENTRIES + n + 1, "over-cap"]),
    );
    kept = await workspaceRecalls(context, big);
    expect(kept.map((entry) => entry.startLine).sort((a, b) => a - b)).toEqual(
      Array.from({ length: MAX_RECALL_ENTRIES }, (_, n) => n + 1),
    );
  });

  it("refuses a time without its offset", async () => {
    await expect(
      recordRecalls(context, { workspace, query: "q", at: "2026-11-05T09:00:00" }, [
        { path: "memory/2026-11-04.md", startLine: 3, endLine: 3, score: 0.5 },
      ]),
    ).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });
});
