import { describe, expect, it } from "vitest";
import { parseSearchLog } from "../../src/sleep/search-log.js";

describe("a search log", () => {
  it("reads one search a line and reports each bad line with what is wrong", () => {
    const hit = { path: "memory/2026-11-04.md", startLine: 3, endLine: 4, score: 0.9 };
    const log = [
      JSON.stringify({ at: "2026-11-05T09:00:00Z", query: "kyoto", hits: [hit] }),
      "",
      "{oops",
      JSON.stringify({ at: "2026-11-05T09:00:00", query: "no offset", hits: [] }),
      JSON.stringify({ at: "2026-11-05T09:00:00Z", query: "bad lines", hits: [{ ...hit, endLine: 2 }] }),
      JSON.stringify({ at: "2026-11-05T09:00:00Z", query: "bad score", hits: [{ ...hit, score: 1.5 }] }),
      JSON.stringify({ at: "2026-11-05T09:00:00+01:00", query: "ok", hits: [] }),
    ].join("\n");
    const { searches, errors } = parseSearchLog(log);
    expect(searches.map((search) => [search.line, search.query])).toEqual([
      [1, "kyoto"],
      [7, "ok"],
    ]);
    expect(searches[0]?.hits).toEqual([hit]);
    expect(errors.map((error) => [error.line, error.message])).toEqual([
      [3, expect.stringMatching(/^not valid JSON/)],
      [4, '"at" must be an ISO timestamp with its offset, got "2026-11-05T09:00:00".'],
      [5, "hits[0].endLine must be a line number from startLine on."],
      [6, "hits[0].score must be a number from 0 to 1."],
    ]);
  });
});
