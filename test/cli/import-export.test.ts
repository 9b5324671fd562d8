import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useFakeEmbeddingServer, writeFakeEmbedderHome } from "../helpers/fake-openai-server.js";
import { runCli, runJson, tempHomes } from "./run-cli.js";

const tempHome = tempHomes();
// Import and export are about records, not vectors: the loopback embedding server stands in for the model.
const server = useFakeEmbeddingServer();
const newHome = () => writeFakeEmbedderHome(tempHome(), server);

const SAMPLE = [
  {
    id: "m-1",
    text: "Alice is allergic to peanuts",
    user_id: "alice",
    category: "identity",
    metadata: { source: "chat", b: 2, a: 1 },
    created_at: "2026-01-02T03:04:05.000Z",
  },
  {
    id: "m-2",
    memory: "Alice prefers dark roast coffee",
    user_id: "alice",
    app_id: "cafe",
    createdAt: "2026-01-03T00:00:00Z",
    updatedAt: "2026-01-04T00:00:00Z",
  },
  {
    id: "m-3",
    text: "Deploys go through staging",
    agent_id: "ops",
    metadata: { pinned: true },
    created_at: "2026-01-05T00:00:00Z",
    expires_at: "2030-01-01T00:00:00Z",
  },
  { text: "Bob lives in Denver", user_id: "bob", hash: "ignored", score: 0.5, categories: ["personal"] },
];
const jsonl = (records: readonly unknown[]) =>
  `${records.map((record) => JSON.stringify(record)).join("\n")}\n`;

describe("import", () => {
  it("keeps ids and timestamps, accepts Mem0 field names, and reports counts", async () => {
    const home = newHome();
    const file = join(home, "..", "sample.jsonl");
    writeFileSync(file, jsonl(SAMPLE));
    const { json, code } = await runJson(["import", file], { home });
    expect(code).toBe(0);
    expect(json).toEqual({
      ok: true,
      imported: 4,
      replaced: 0,
      skipped: 0,
      failed: 0,
      lines: 4,
      failures: [],
    });

    const got = await runJson(["get", "m-2"], { home });
    expect(got.json).toMatchObject({
      result: {
        id: "m-2",
        memory: "Alice prefers dark roast coffee",
        app_id: "cafe",
        createdAt: "2026-01-03T00:00:00.000Z",
        updatedAt: "2026-01-04T00:00:00.000Z",
      },
    });

    const again = await runJson(["import", file], { home });
    expect(again.json).toMatchObject({ ok: true, imported: 0, skipped: 4 });
  });

  it("imports a Mem0 getAll dump and Mem0's Markdown export as they are", async () => {
    const home = newHome();
    const dir = tempHome();
    mkdirSync(dir, { recursive: true });
    const dump = join(dir, "mem0-getall.json");
    writeFileSync(
      dump,
      JSON.stringify({
        results: [
          {
            id: "d-1",
            memory: "Prefers window seats",
            created_at: "2025-02-01T00:00:00Z",
            hash: "x",
            score: 0.4,
          },
          { id: "d-2", memory: "", user_id: "kim" },
        ],
      }),
    );
    const fromDump = await runJson(["import", dump, "--user", "kim"], { home });
    expect(fromDump.json).toMatchObject({ imported: 1, failed: 1 });
    // In a JSON document a failure names the record's number.
    expect(fromDump.json.failures).toMatchObject([{ line: 2, code: "EMPTY_TEXT" }]);

    const markdown = join(dir, "mem0-export-travel-2026-11-30.md");
    writeFileSync(
      markdown,
      "---\nid: md-1\ncreated_at: 2025-02-03T00:00:00Z\ntype: preference\n---\nAvoids red-eye flights\n",
    );
    const human = await runCli(["import", markdown, "--user", "kim"], { home });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Imported 1 · replaced 0 · skipped 0 · failed 0/m);
    const listed = await runJson(["list", "--user", "kim"], { home });
    expect((listed.json.results as { id: string }[]).map((item) => item.id).sort()).toEqual(["d-1", "md-1"]);
  });

  it("reports bad lines by number with the reason, imports the good ones, and exits 1", async () => {
    const home = newHome();
    const input = [
      JSON.stringify({ text: "Good line one", user_id: "kim" }),
      "{not json",
      JSON.stringify({ memory: "No scope at all" }),
      "",
      JSON.stringify(["an", "array"]),
      JSON.stringify({ text: "Good line two", user_id: "kim", metadata: { tag: "x" } }),
      JSON.stringify({ text: "Blank category", user_id: "kim", category: "   " }),
      JSON.stringify({ text: "Bad type", user_id: true }),
      JSON.stringify({ user_id: "kim" }),
    ].join("\n");
    const { json, code } = await runJson(["import", "-"], { home, input });
    expect(code).toBe(1);
    expect(json).toMatchObject({
      ok: false,
      imported: 2,
      failed: 6,
      lines: 8,
      error: { code: "IMPORT_INCOMPLETE" },
    });
    const failures = json.failures as { line: number; code: string; message: string }[];
    expect(failures.map((failure) => [failure.line, failure.code])).toEqual([
      [2, "INVALID_LINE"],
      [3, "SCOPE_REQUIRED"],
      [5, "INVALID_LINE"],
      [7, "INVALID_ARGUMENT"],
      [8, "INVALID_LINE"],
      [9, "INVALID_LINE"],
    ]);
    expect(failures[0]?.message).toMatch(/not valid JSON/);
    expect(failures[4]?.message).toMatch(/"user_id" must be a string/);
    expect((await runJson(["list", "--user", "kim"], { home })).json.total).toBe(2);

    const human = await runCli(["import", "-"], { home: newHome(), input });
    expect(human.code).toBe(1);
    expect(human.stdout).toMatch(/^Imported 2 · replaced 0 · skipped 0 · failed 6 \(8 lines from stdin\)$/m);
    expect(human.stdout).toMatch(/^line 2\s+INVALID_LINE\s+not valid JSON/m);
    expect(human.stdout).toMatch(/^line 7\s+INVALID_ARGUMENT\s+A category is a label/m);
    expect(human.stderr).toMatch(/^error\[IMPORT_INCOMPLETE\]: 6 lines of 8 failed/);
  });

  it("gives lines without a scope the scope flags", async () => {
    const home = newHome();
    const { json } = await runJson(["import", "-", "--user", "lee"], {
      home,
      input: jsonl([{ text: "Lee likes jazz" }]),
    });
    expect(json).toMatchObject({ ok: true, imported: 1 });
    expect((await runJson(["list", "--user", "lee"], { home })).json.total).toBe(1);
  });

  it("replaces existing ids with --on-conflict replace", async () => {
    const home = newHome();
    await runJson(["import", "-"], {
      home,
      input: jsonl([{ id: "r-1", text: "Old wording", user_id: "mo" }]),
    });
    const input = jsonl([{ id: "r-1", text: "New wording", user_id: "mo" }]);
    expect((await runJson(["import", "-"], { home, input })).json).toMatchObject({ skipped: 1, replaced: 0 });
    expect((await runJson(["get", "r-1"], { home })).json).toMatchObject({
      result: { memory: "Old wording" },
    });
    const replaced = await runJson(["import", "-", "--on-conflict", "replace"], { home, input });
    expect(replaced.json).toMatchObject({ ok: true, replaced: 1, imported: 0 });
    expect((await runJson(["get", "r-1"], { home })).json).toMatchObject({
      result: { memory: "New wording" },
    });
    expect((await runJson(["import", "-", "--on-conflict", "merge"], { home, input })).code).toBe(2);
  });

  it("fails cleanly on a missing file", async () => {
    const { code, json } = await runJson(["import", "/no/such/file.jsonl"], { home: newHome() });
    expect(code).toBe(1);
    expect(json).toMatchObject({
      ok: false,
      error: { code: "IO_ERROR", message: expect.stringMatching(/ENOENT/) },
    });
  });
});

describe("export", () => {
  it("round-trips byte for byte: export → import into an empty home → export", async () => {
    const first = newHome();
    await runJson(["import", "-"], { home: first, input: jsonl(SAMPLE) });
    await runJson(
      ["add", "Added after the import", "--user", "alice", "--metadata", '{"z":{"y":1,"x":[3,1]}}'],
      { home: first },
    );
    const exported = await runCli(["export"], { home: first });
    expect(exported.code).toBe(0);
    const lines = exported.stdout.trimEnd().split("\n");
    expect(lines).toHaveLength(5);
    expect(JSON.parse(lines[0] as string)).toEqual({
      id: "m-1",
      text: "Alice is allergic to peanuts",
      user_id: "alice",
      category: "identity",
      metadata: { a: 1, b: 2, source: "chat" },
      created_at: "2026-01-02T03:04:05.000Z",
      updated_at: "2026-01-02T03:04:05.000Z",
    });

    const second = newHome();
    const imported = await runJson(["import", "-"], { home: second, input: exported.stdout });
    expect(imported.json).toMatchObject({ ok: true, imported: 5 });
    const file = join(second, "again.jsonl");
    const written = await runJson(["export", "--output", file], { home: second });
    expect(written.json).toEqual({ ok: true, exported: 5, output: file });
    expect(readFileSync(file, "utf8")).toBe(exported.stdout);
  });

  it("exports one scope with scope flags, and needs --output with --json", async () => {
    const home = newHome();
    await runJson(["import", "-"], { home, input: jsonl(SAMPLE) });
    const alice = await runCli(["export", "--user", "alice"], { home });
    expect(
      alice.stdout
        .trimEnd()
        .split("\n")
        .map((line) => JSON.parse(line).id),
    ).toEqual(["m-1", "m-2"]);
    const filtered = await runCli(["export", "--user", "alice", "--filters", '{"app_id":"cafe"}'], { home });
    expect(filtered.stdout.trimEnd().split("\n")).toHaveLength(1);

    const refused = await runJson(["export"], { home });
    expect(refused.code).toBe(2);
    expect(refused.json).toMatchObject({ ok: false, error: { code: "USAGE" } });

    const human = await runCli(["export", "--output", join(home, "out.jsonl")], { home });
    expect(human.stdout).toBe(`Exported 4 memories to ${join(home, "out.jsonl")}\n`);
  });
});
