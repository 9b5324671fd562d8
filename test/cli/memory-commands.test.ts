import { describe, expect, it } from "vitest";
import { runCli, runJson, tempHomes } from "./run-cli.js";

const newHome = tempHomes();

interface Item {
  id: string;
  memory: string;
  score?: number;
  metadata: Record<string, unknown>;
  user_id?: string;
  score_details?: Record<string, unknown>;
}

async function addOne(home: string, text: string, ...flags: string[]): Promise<Item> {
  const { json, code, stderr } = await runJson(["add", text, ...flags], { home });
  expect(code, `${JSON.stringify(json)} ${stderr}`).toBe(0);
  return (json.results as Item[])[0] as Item;
}

describe("add, get, list", () => {
  it("adds with category, metadata and pinned, and reads it back", async () => {
    const home = newHome();
    const added = await runJson(
      [
        "add",
        "Alice is allergic to peanuts",
        "--user",
        "alice",
        "--category",
        "identity",
        "--metadata",
        '{"source":"chat"}',
        "--pinned",
      ],
      { home },
    );
    expect(added.code).toBe(0);
    expect(added.json).toMatchObject({
      ok: true,
      results: [
        {
          memory: "Alice is allergic to peanuts",
          event: "ADD",
          metadata: { source: "chat", pinned: true, category: "identity" },
        },
      ],
    });
    const id = (added.json.results as Item[])[0]?.id as string;

    const got = await runJson(["get", id], { home });
    expect(got.json).toMatchObject({
      ok: true,
      result: { id, memory: "Alice is allergic to peanuts", user_id: "alice" },
    });

    const human = await runCli(["get", id], { home });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^ID\s+\S+/m);
    expect(human.stdout).toMatch(/Scope\s+user_id=alice/);
    expect(human.stdout).toMatch(/Category\s+identity/);

    const repeat = await runJson(["add", "alice is allergic to peanuts.", "--user", "alice"], { home });
    expect(repeat.json).toMatchObject({ ok: true, results: [{ id, event: "NONE" }] });
    expect(
      (await runCli(["add", "Alice is allergic to peanuts", "--user", "alice"], { home })).stdout,
    ).toMatch(/^exists\s/);
  });

  it("reads the text from stdin with -", async () => {
    const home = newHome();
    const { json } = await runJson(["add", "-", "--user", "bob"], { home, input: "Bob prefers tabs\n" });
    expect(json).toMatchObject({ ok: true, results: [{ memory: "Bob prefers tabs", event: "ADD" }] });
  });

  it("lists newest first with pages and a total, in aligned columns", async () => {
    const home = newHome();
    for (const text of ["first fact", "second fact", "third fact"])
      await addOne(home, text, "--user", "carol");
    const page = await runJson(["list", "--user", "carol", "--page-size", "2", "--page", "1"], { home });
    expect(page.json).toMatchObject({ ok: true, total: 3, page: 1, pageSize: 2, hasMore: true });
    expect((page.json.results as Item[]).map((item) => item.memory)).toEqual(["third fact", "second fact"]);

    const human = await runCli(["list", "--user", "carol", "--page-size", "2"], { home });
    const lines = human.stdout.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^ID\s+CREATED\s+CATEGORY\s+MEMORY$/);
    // Columns line up: MEMORY starts at the same offset on every row.
    const offset = lines[0]?.indexOf("MEMORY");
    expect(lines[1]?.indexOf("third fact")).toBe(offset);
    expect(lines[2]?.indexOf("second fact")).toBe(offset);
    expect(lines[3]).toMatch(/1–2 of 3 memories · page 1 of 2 · next: --page 2/);

    expect((await runCli(["list", "--user", "nobody"], { home })).stdout).toBe("No memories found.\n");
  });

  it("applies --filters and hides expired memories unless --show-expired", async () => {
    const home = newHome();
    await addOne(home, "Standup moved to 10am", "--user", "dan", "--category", "decision");
    await addOne(home, "Old office address", "--user", "dan", "--expires", "2000-01-01");
    const filtered = await runJson(["list", "--user", "dan", "--filters", '{"category":"decision"}'], {
      home,
    });
    expect((filtered.json.results as Item[]).map((item) => item.memory)).toEqual(["Standup moved to 10am"]);
    expect((await runJson(["list", "--user", "dan"], { home })).json.total).toBe(1);
    expect((await runJson(["list", "--user", "dan", "--show-expired"], { home })).json.total).toBe(2);
  });
});

describe("search", () => {
  it("ranks, shows scores as percentages, and explains each component", async () => {
    const home = newHome();
    await addOne(home, "Alice is allergic to peanuts", "--user", "alice");
    await addOne(home, "Alice drives a blue bicycle to work", "--user", "alice");
    await addOne(home, "Bob is allergic to cats", "--user", "bob");

    const { json, code } = await runJson(
      ["search", "peanut allergy", "--user", "alice", "--limit", "1", "--explain"],
      { home },
    );
    expect(code).toBe(0);
    const results = json.results as Item[];
    expect(results).toHaveLength(1);
    expect(results[0]).toMatchObject({ memory: "Alice is allergic to peanuts", user_id: "alice" });
    expect(results[0]?.score).toBeGreaterThan(0);
    expect(results[0]?.score_details).toMatchObject({
      semanticScore: expect.any(Number),
      matchedBy: expect.any(Array),
    });

    const human = await runCli(["search", "peanut allergy", "--user", "alice", "--explain"], { home });
    const lines = human.stdout.split("\n");
    expect(lines[0]).toMatch(/^#\s+SCORE\s+ID\s+MEMORY$/);
    expect(lines[1]).toMatch(/^1\s+\d{1,3}%\s+\S+\s+Alice is allergic to peanuts$/);
    expect(lines[2]).toMatch(
      /semantic \d\.\d\d \+ keyword \d\.\d\d(×[\d.]+)? \+ entity \d\.\d\d(×[\d.]+)? = .* → \d+% · threshold 10% · matched by/,
    );

    const none = await runCli(
      ["search", "quantum chromodynamics", "--user", "alice", "--threshold", "0.99"],
      { home },
    );
    expect(none.stdout).toBe("No memories found.\n");
  });

  it("rejects a bad --mode, --limit or --filters as usage errors", async () => {
    const home = newHome();
    for (const flags of [
      ["--mode", "fuzzy"],
      ["--limit", "ten"],
      ["--filters", "{nope"],
      ["--filters", "[1]"],
    ]) {
      const { code, json } = await runJson(["search", "q", "--user", "a", ...flags], { home });
      expect(code).toBe(2);
      expect(json).toMatchObject({ ok: false, error: { code: "USAGE" } });
    }
  });
});

describe("update, pin, unpin, history", () => {
  it("updates text and metadata, pins and unpins, and shows the history", async () => {
    const home = newHome();
    const { id } = await addOne(home, "Alice lives in Boston", "--user", "alice");

    const updated = await runJson(
      ["update", id, "Alice lives in Denver", "--metadata", '{"confidence":0.9}'],
      { home },
    );
    expect(updated.json).toMatchObject({
      ok: true,
      message: "Memory updated successfully!",
      result: { id, memory: "Alice lives in Denver", metadata: { confidence: 0.9 } },
    });

    expect((await runJson(["pin", id], { home })).json).toMatchObject({
      ok: true,
      result: { metadata: { pinned: true } },
    });
    const unpinned = await runJson(["unpin", id], { home });
    expect((unpinned.json.result as Item).metadata).not.toHaveProperty("pinned");

    const history = await runJson(["history", id], { home });
    expect(history.json).toMatchObject({ ok: true, id });
    const rows = history.json.results as { action: string; new_value: string | null }[];
    expect(rows.map((row) => row.action)).toEqual(["ADD", "UPDATE", "UPDATE", "UPDATE"]);

    const human = await runCli(["history", id], { home });
    expect(human.stdout).toMatch(/^WHEN\s+ACTION\s+ACTOR\s+CHANGE$/m);
    expect(human.stdout).toContain("Alice lives in Boston → Alice lives in Denver");
  });

  it("needs something to change", async () => {
    const { code, stderr } = await runCli(["update", "some-id"], { home: newHome() });
    expect(code).toBe(2);
    expect(stderr).toMatch(/^error\[USAGE\]: give the new <text>, --metadata, --category or --expires\./);
  });

  it("reports an unknown id as MEMORY_NOT_FOUND with exit code 1", async () => {
    const home = newHome();
    for (const args of [
      ["get", "nope"],
      ["update", "nope", "x"],
      ["delete", "nope"],
      ["history", "nope"],
      ["pin", "nope"],
    ]) {
      const { code, json } = await runJson(args, { home });
      expect(code, args.join(" ")).toBe(1);
      expect(json).toEqual({ ok: false, error: { code: "MEMORY_NOT_FOUND", message: expect.any(String) } });
    }
  });
});

describe("delete and reset", () => {
  it("deletes one memory by id", async () => {
    const home = newHome();
    const { id } = await addOne(home, "Temporary fact", "--user", "erin");
    expect((await runJson(["delete", id], { home })).json).toEqual({
      ok: true,
      message: "Memory deleted successfully!",
      id,
    });
    expect((await runJson(["get", id], { home })).code).toBe(1);
  });

  it("refuses delete --all without --yes or without a scope, and deletes one scope with both", async () => {
    const home = newHome();
    await addOne(home, "Erin fact one", "--user", "erin");
    await addOne(home, "Erin fact two", "--user", "erin");
    await addOne(home, "Finn fact", "--user", "finn");

    const refused = await runCli(["delete", "--all", "--user", "erin"], { home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/add --yes to confirm/);
    expect((await runJson(["delete", "--all", "--yes"], { home, env: { LUCID_USER_ID: "erin" } })).code).toBe(
      2,
    );
    expect((await runJson(["delete", "some-id", "--all"], { home })).code).toBe(2);
    expect((await runJson(["delete"], { home })).code).toBe(2);
    expect((await runJson(["list", "--user", "erin"], { home })).json.total).toBe(2);

    const deleted = await runJson(["delete", "--all", "--user", "erin", "--yes"], { home });
    expect(deleted.json).toEqual({ ok: true, message: "Memories deleted successfully!", deleted: 2 });
    expect((await runJson(["list", "--user", "finn"], { home })).json.total).toBe(1);
  });

  it("resets only with --yes", async () => {
    const home = newHome();
    await addOne(home, "Something", "--user", "gus");
    const refused = await runJson(["reset"], { home });
    expect(refused.code).toBe(2);
    expect(refused.json).toMatchObject({ ok: false, error: { code: "USAGE" } });
    const reset = await runJson(["reset", "--yes"], { home });
    expect(reset.json).toMatchObject({ ok: true, message: "Store reset." });
    expect((await runJson(["list", "--user", "gus"], { home })).json.total).toBe(0);
  });
});

describe("forget", () => {
  it("deletes a clear match and lists candidates otherwise", async () => {
    const home = newHome();
    await addOne(home, "Hana's favourite colour is teal", "--user", "hana");
    await addOne(home, "Hana works at the observatory on Tuesdays", "--user", "hana");

    const vague = await runJson(["forget", "something", "--user", "hana"], { home });
    expect(vague.code).toBe(0);
    expect(vague.json).toMatchObject({ ok: true, deleted: null });
    expect((await runJson(["list", "--user", "hana"], { home })).json.total).toBe(2);

    const clear = await runJson(["forget", "Hana's favourite colour is teal", "--user", "hana"], { home });
    expect(clear.json).toMatchObject({ ok: true, deleted: { memory: "Hana's favourite colour is teal" } });
    expect((await runJson(["list", "--user", "hana"], { home })).json.total).toBe(1);
  });

  it("forgets by --id, and needs a query or an id", async () => {
    const home = newHome();
    const { id } = await addOne(home, "Ivan owns a kayak", "--user", "ivan");
    const human = await runCli(["forget", "--id", id], { home });
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^Forgot \S+ {2}Ivan owns a kayak/);
    expect((await runJson(["forget"], { home })).code).toBe(2);
    expect((await runJson(["forget", "kayak", "--id", id], { home })).code).toBe(2);
  });
});
