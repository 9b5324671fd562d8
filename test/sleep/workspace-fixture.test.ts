/**
 * The workspace fixture (`test/fixtures/sleep-workspace/`): a person's notes and seven weeks of
 * searches, written from the spec by a helper who never read `src/sleep`, with the promoted set and
 * the near misses its own independent script computed. Replayed here through the real recording
 * and ranking; the two implementations must agree.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { MemoryContext } from "../../src/core/context.js";
import { type Memory, openMemory } from "../../src/index.js";
import { rankForPromotion, scoreEntry } from "../../src/sleep/deep-rank.js";
import { recallKey } from "../../src/sleep/recall-keys.js";
import { recordRecalls, type SkipReason, workspaceRecalls } from "../../src/sleep/record-recalls.js";
import { parseSearchLog } from "../../src/sleep/search-log.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";

const WORKSPACE = fileURLToPath(new URL("../fixtures/sleep-workspace/", import.meta.url));

interface Expected {
  now: string;
  options: {
    limit: number;
    minScore: number;
    minRecallCount: number;
    minUniqueQueries: number;
    recencyHalfLifeDays: number;
    maxAgeDays: number;
  };
  promoted: string[];
  nearMisses: { range: string; fails: string }[];
}

const expected = JSON.parse(readFileSync(`${WORKSPACE}expected.json`, "utf8")) as Expected;
let memory: Memory;
let context: MemoryContext;
const skipped = new Map<string, SkipReason>();

/** `memory/2026-11-04.md#L3-L5` → its recall key. */
function keyOf(range: string): string {
  const match = /^(.*)#L(\d+)-L(\d+)$/u.exec(range);
  if (match === null) throw new Error(`not a range: ${range}`);
  return recallKey(match[1] as string, Number(match[2]), Number(match[3]));
}

beforeAll(async () => {
  memory = await openMemory({ path: ":memory:", embedder: scriptedEmbedder(3, () => [1, 0, 0]) });
  context = await memory.ready();
  const { searches, errors } = parseSearchLog(readFileSync(`${WORKSPACE}search-log.jsonl`, "utf8"));
  expect(errors).toEqual([]);
  for (const search of searches) {
    const result = await recordRecalls(
      context,
      { workspace: WORKSPACE, query: search.query, at: search.at },
      search.hits,
    );
    for (const each of result.skipped) {
      skipped.set(`${each.path}#L${each.startLine}-L${each.endLine}`, each.reason);
    }
  }
});
afterAll(async () => {
  await memory.close();
});

describe("the workspace fixture", () => {
  it("promotes the set the spec's rules give, in their order", async () => {
    const ranked = rankForPromotion(await workspaceRecalls(context, WORKSPACE), {
      now: expected.now,
      ...expected.options,
    });
    expect(
      ranked.map((scored) => `${scored.entry.path}#L${scored.entry.startLine}-L${scored.entry.endLine}`),
    ).toEqual(expected.promoted);
  });

  it("misses each near miss for its reason", async () => {
    const entries = new Map((await workspaceRecalls(context, WORKSPACE)).map((entry) => [entry.key, entry]));
    for (const miss of expected.nearMisses) {
      const entry = entries.get(keyOf(miss.range));
      if (miss.fails === "not-short-term" || miss.fails === "contaminated") {
        // Never recorded at all: the recording refused it.
        expect({ range: miss.range, recorded: entry !== undefined }).toEqual({
          range: miss.range,
          recorded: false,
        });
        const reason = skipped.get(miss.range);
        expect({ range: miss.range, reason: reason === "not-short-term" ? reason : "contaminated" }).toEqual({
          range: miss.range,
          reason: miss.fails,
        });
        continue;
      }
      expect({ range: miss.range, recorded: entry !== undefined }).toEqual({
        range: miss.range,
        recorded: true,
      });
      const scored = scoreEntry(entry as NonNullable<typeof entry>, {
        now: expected.now,
        ...expected.options,
      });
      const failed = scored.gates.filter((gate) => !gate.passed).map((gate) => gate.gate);
      expect({ range: miss.range, failed }).toEqual({
        range: miss.range,
        failed: expect.arrayContaining([miss.fails]),
      });
    }
  });
});
