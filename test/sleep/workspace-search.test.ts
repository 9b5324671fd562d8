/**
 * Indexing a workspace's notes and searching them through `memory.workspace(dir)`: what is indexed
 * and how incrementally, which hits become recall signals, and that recording never fails a search.
 */
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import type { MemoryContext } from "../../src/core/context.js";
import { type Memory, openMemory } from "../../src/index.js";
import { searchNotes } from "../../src/sleep/workspace-search.js";
import { tempFiles } from "../helpers/temp-dir.js";
import { wordEmbedder } from "../helpers/word-embedder.js";

const files = tempFiles("sleep-search");
const dir = join(files.dir, "workspace");
const embedder = wordEmbedder();
let memory: Memory;

const write = (path: string, text: string) => {
  mkdirSync(join(dir, path, ".."), { recursive: true });
  writeFileSync(join(dir, path), text);
};

beforeAll(async () => {
  write("MEMORY.md", "# Long-Term Memory\n\n- Ana lives in Porto and cycles to work\n");
  write(
    "memory/2026-11-04.md",
    "# 2026-11-04\n\n## Travel\n- book the ryokan in Kyoto by March\n- renew the passport before the Kyoto trip\n",
  );
  write("memory/2026-11-05-standup.md", "## Work\n- the Kyoto office review moves to Friday\n");
  write("memory/people.md", "## People\n- Kenji is our host in Kyoto\n");
  write("memory/dreaming/deep/2026-11-05.md", "## Deep Sleep\n- promoted the Kyoto ryokan booking\n");
  write(
    "memory/2026-11-06.md",
    "## Notes\n- Kyoto: Candidate: book the ryokan; confidence: 0.62; evidence: memory/2026-11-04.md:4-4; recalls: 0; status: staged\n",
  );
  memory = await openMemory({ path: files.path(), embedder });
});
afterAll(async () => {
  await memory.close();
});

describe("the notes index", () => {
  it("indexes MEMORY.md and memory/, marking only dated daily notes short-term", async () => {
    const report = await memory.workspace(dir).index();
    expect(report).toMatchObject({ files: 6, indexed: 6, removed: 0, skipped: [] });
    const context = await memory.ready();
    const indexed = await context.store.listNoteFiles(dir);
    expect(Object.fromEntries(indexed.map((file) => [file.path, file.shortTerm]))).toEqual({
      "MEMORY.md": false,
      "memory/2026-11-04.md": true,
      "memory/2026-11-05-standup.md": true,
      "memory/2026-11-06.md": true,
      "memory/dreaming/deep/2026-11-05.md": false,
      "memory/people.md": false,
    });
  });

  it("costs nothing for an unchanged file, re-indexes an edited one and forgets a deleted one", async () => {
    const workspace = memory.workspace(dir);
    const before = embedder.embedded;
    expect(await workspace.index()).toMatchObject({ indexed: 0, removed: 0 });
    expect(embedder.embedded).toBe(before);

    write("memory/people.md", "## People\n- Kenji is our host in Kyoto\n- Mei runs the tea house\n");
    write("memory/2026-11-07.md", "## Home\n- the boiler was serviced\n");
    rmSync(join(dir, "memory", "2026-11-06.md"));
    const report = await workspace.index();
    expect(report).toMatchObject({ files: 6, indexed: 2, removed: 1 });
    expect(embedder.embedded - before).toBe(report.chunks);
    const found = await workspace.search("who runs the tea house?", { record: false, notesThreshold: 0 });
    expect(found.notes.map((note) => note.address)).toContain("memory/people.md#L3-L3");
  });
});

describe("sleep's own reports in the index", () => {
  it("indexes a report's candidates and themes, not the detail lines under each", async () => {
    const reports = join(files.dir, "reports");
    mkdirSync(join(reports, "memory", "dreaming", "light"), { recursive: true });
    writeFileSync(
      join(reports, "memory", "dreaming", "light", "2026-11-29.md"),
      [
        "# Light Sleep", // 1
        "", // 2
        "- Candidate: Boiler fault F.28 means the ignition failed", // 3
        "  - confidence: 0.62", // 4
        "  - evidence: memory/2026-11-02.md:6-8", // 5
        "  - recalls: 3", // 6
        "  - status: staged", // 7
      ].join("\n"),
    );
    // The same lines in a daily note are the note's own text: all of them are indexed.
    writeFileSync(
      join(reports, "memory", "2026-11-29.md"),
      "- Boiler check\n  - status: staged with the plumber\n",
    );
    const workspace = memory.workspace(reports);
    expect(await workspace.index()).toMatchObject({ files: 2, indexed: 2, chunks: 3 });
    const found = await workspace.search("boiler ignition", { record: false, notesThreshold: 0 });
    expect(found.notes.map((note) => note.address).sort()).toEqual([
      "memory/2026-11-29.md#L1-L1",
      "memory/2026-11-29.md#L2-L2",
      "memory/dreaming/light/2026-11-29.md#L3-L3",
    ]);
  });
});

describe("searching a workspace", () => {
  it("returns note hits with their addresses and records recalls only for daily notes", async () => {
    const workspace = memory.workspace(dir);
    const found = await workspace.search("Kyoto ryokan booking", {
      at: "2026-11-08T09:00:00Z",
      notesThreshold: 0,
      notesTopK: 10,
    });
    const addresses = found.notes.map((note) => note.address);
    expect(addresses).toEqual(
      expect.arrayContaining([
        "memory/2026-11-04.md#L4-L4",
        "MEMORY.md#L3-L3",
        "memory/dreaming/deep/2026-11-05.md#L2-L2",
      ]),
    );
    const daily = found.notes.filter((note) => note.shortTerm);
    expect(found.recorded).toBe(daily.length);
    const signals = await workspace.signals();
    expect(signals.map((entry) => `${entry.path}#L${entry.startLine}-L${entry.endLine}`).sort()).toEqual(
      daily.map((note) => note.address).sort(),
    );
    expect(signals.every((entry) => entry.recallCount === 1 && entry.recallDays[0] === "2026-11-08")).toBe(
      true,
    );
    expect(found.notes[0]?.score).toBeGreaterThanOrEqual(found.notes.at(-1)?.score ?? 1);
  });

  it("returns long-term memories of the workspace's scope beside the notes", async () => {
    await memory.add("Ana's Kyoto hotel is the Hoshinoya", { agentId: "main" });
    await memory.add("Bo's Kyoto hotel is somewhere else", { userId: "bo" });
    const found = await memory.workspace(dir).search("Kyoto hotel", { record: false });
    expect(found.results.map((item) => item.memory)).toEqual(["Ana's Kyoto hotel is the Hoshinoya"]);
  });

  it("never stores a contaminated snippet (sleep's own staging text)", async () => {
    write(
      "memory/2026-11-09.md",
      "## Notes\n- Candidate: book the ryokan; confidence: 0.62; evidence: memory/2026-11-04.md:4-4; recalls: 0; status: staged\n",
    );
    const found = await memory.workspace(dir).search("Candidate book the ryokan confidence evidence staged", {
      notesThreshold: 0,
      notesTopK: 20,
    });
    expect(found.notes.map((note) => note.path)).toContain("memory/2026-11-09.md");
    const signals = await memory.workspace(dir).signals();
    expect(signals.map((entry) => entry.path)).not.toContain("memory/2026-11-09.md");
  });

  it("never fails a search when recording fails: the hits come back and a warning says why", async () => {
    const context = await memory.ready();
    const broken: MemoryContext = {
      ...context,
      store: new Proxy(context.store, {
        get(target, name, receiver) {
          if (name === "transaction") return () => Promise.reject(new Error("disk full"));
          const value = Reflect.get(target, name, receiver);
          return typeof value === "function" ? value.bind(target) : value;
        },
      }),
    };
    const warnings = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      const found = await searchNotes(broken, dir, "renew the passport", { threshold: 0 });
      expect(found.notes.length).toBeGreaterThan(0);
      expect(found.recorded).toBe(0);
      expect(warnings).toHaveBeenCalledWith(
        expect.stringContaining("disk full"),
        expect.objectContaining({ code: "LUCID_RECALL_NOT_RECORDED" }),
      );
    } finally {
      warnings.mockRestore();
    }
  });

  it("reads a note's lines by address, and only the workspace's notes", async () => {
    const workspace = memory.workspace(dir);
    expect(await workspace.get("memory/2026-11-04.md#L4-L5")).toMatchObject({
      text: "- book the ryokan in Kyoto by March\n- renew the passport before the Kyoto trip",
      address: "memory/2026-11-04.md#L4-L5",
    });
    expect(await workspace.get("memory/2026-11-04.md#L4")).toMatchObject({ startLine: 4, endLine: 4 });
    await expect(workspace.get("../secrets.md#L1-L1")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(workspace.get("/etc/passwd#L1-L1")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
    await expect(workspace.get("memory/2026-11-04.md#L40-L41")).rejects.toMatchObject({
      code: "NOTE_NOT_FOUND",
    });
    await expect(workspace.get("memory/2026-11-04.md")).rejects.toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("says clearly when the workspace is not there", async () => {
    await expect(memory.workspace(join(files.dir, "nowhere")).search("x")).rejects.toMatchObject({
      code: "WORKSPACE_NOT_FOUND",
    });
  });
});
