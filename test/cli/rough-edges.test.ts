/**
 * What a new user trips over on the command line: bad flag values are usage errors (exit 2), a
 * mistyped flag gets a suggestion, messages speak in commands and flags, short ids work, and the
 * output says what changed and which scope a memory is in.
 */
import { describe, expect, it } from "vitest";
import { useFakeEmbeddingServer, writeFakeEmbedderHome } from "../helpers/fake-openai-server.js";
import { runCli, runJson, tempHomes } from "./run-cli.js";

const tempHome = tempHomes();
const server = useFakeEmbeddingServer();
const newHome = () => writeFakeEmbedderHome(tempHome(), server);

describe("the command line for a new user", () => {
  it("answers bad flag values with a usage error (exit 2) and stores nothing", async () => {
    const home = newHome();
    const tomorrow = await runCli(["add", "Alice likes tea", "--user", "alice", "--expires", "tomorrow"], {
      home,
    });
    expect(tomorrow.code).toBe(2);
    expect(tomorrow.stderr).toMatch(/^error\[USAGE\]: --expires must be a day such as 2099-12-31/m);
    const spaced = await runCli(["add", "Alice likes tea", "--user", "alice smith"], { home });
    expect(spaced.code).toBe(2);
    expect(spaced.stderr).toMatch(/--user needs an id without spaces, got "alice smith"/);
    expect(spaced.stderr).toMatch(/^usage: lucid add/m);
    expect((await runJson(["list", "--user", "alice"], { home })).json.total).toBe(0);
  });

  it("suggests the flag that was meant", async () => {
    const result = await runCli(["list", "--usr", "alice"], { home: newHome() });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain("unknown flag --usr for `lucid list` (did you mean --user?).");
  });

  it("speaks in commands and flags, not SDK calls", async () => {
    const home = newHome();
    const noScope = await runCli(["list"], { home });
    expect(noScope.stderr).toMatch(/^error\[SCOPE_REQUIRED\]: `lucid list` needs a scope\.$/m);
    // The command typed, not the library's verb: forget searches, yet the user ran forget.
    const forget = await runCli(["forget", "tea"], { home });
    expect(forget.stderr).toMatch(/^error\[SCOPE_REQUIRED\]: `lucid forget` needs a scope\.$/m);
    const missing = await runCli(["get", "0b6e2f1a-0000-4000-8000-000000000000"], { home });
    expect(missing.stderr).toMatch(
      /^error\[MEMORY_NOT_FOUND\]: No memory has the id "0b6e2f1a-0000-4000-8000-000000000000"\.$/m,
    );
    for (const output of [noScope.stderr, missing.stderr])
      expect(output).not.toMatch(/getAll|\{ userId|\{ filters/);
  });

  it("takes an id's first 8 characters wherever an id goes, and refuses an ambiguous one", async () => {
    const home = newHome();
    const input = [
      JSON.stringify({
        id: "aaaa1111-0000-4000-8000-000000000001",
        text: "Cleo plays chess",
        user_id: "cleo",
      }),
      JSON.stringify({ id: "aaaa1111-0000-4000-8000-000000000002", text: "Cleo plays go", user_id: "cleo" }),
      JSON.stringify({
        id: "bbbb2222-0000-4000-8000-000000000003",
        text: "Cleo reads sci-fi",
        user_id: "cleo",
      }),
    ].join("\n");
    expect((await runJson(["import", "-"], { home, input })).json).toMatchObject({ imported: 3 });
    const got = await runJson(["get", "bbbb2222"], { home });
    expect(got.json.result).toMatchObject({ id: "bbbb2222-0000-4000-8000-000000000003" });
    const updated = await runJson(["update", "bbbb2222", "--category", "preference"], { home });
    expect(updated.json.result).toMatchObject({ metadata: { category: "preference" } });
    const cleared = await runJson(["update", "bbbb2222", "--category", "none"], { home });
    expect(cleared.json.result).not.toHaveProperty("metadata.category");
    const ambiguous = await runCli(["get", "aaaa1111"], { home });
    expect(ambiguous.code).toBe(1);
    expect(ambiguous.stderr).toMatch(
      /INVALID_ARGUMENT\]: The id prefix "aaaa1111" starts 2 ids \(aaaa1111-0000-4000-8000-000000000001, aaaa1111-0000-4000-8000-000000000002\): give more of the id\./,
    );
    const tooShort = await runCli(["get", "bbbb"], { home });
    expect(tooShort.stderr).toMatch(/MEMORY_NOT_FOUND/);
  });

  it("says in history which metadata an update changed", async () => {
    const home = newHome();
    const added = await runJson(["add", "Dev drinks tea", "--user", "dev"], { home });
    const id = (added.json.results as { id: string }[])[0]?.id as string;
    await runJson(["update", id, "--metadata", '{"mood":"calm"}'], { home });
    await runJson(["update", id, "Dev drinks green tea", "--category", "preference"], { home });
    const history = await runCli(["history", id.slice(0, 8)], { home });
    expect(history.stdout).toMatch(/UPDATE .*Dev drinks tea \(metadata\.mood changed; text unchanged\)/);
    expect(history.stdout).toMatch(/UPDATE .*Dev drinks tea → Dev drinks green tea \(category changed\)/);
    const json = await runJson(["history", id], { home });
    expect((json.json.results as { changed?: string[] }[]).map((row) => row.changed)).toEqual([
      undefined,
      ["metadata.mood"],
      ["text", "category"],
    ]);
  });

  it("shows every scope key that varies in a list", async () => {
    const home = newHome();
    await runJson(["add", "Eve codes in Go", "--user", "eve", "--agent", "coder"], { home });
    await runJson(["add", "Eve runs at dawn", "--user", "eve", "--app", "fitness"], { home });
    const listed = await runCli(["list", "--user", "eve"], { home });
    expect(listed.stdout).toMatch(/^ID +CREATED +SCOPE +CATEGORY +MEMORY/m);
    expect(listed.stdout).toMatch(/agent_id=coder +Eve codes in Go/);
    expect(listed.stdout).toMatch(/app_id=fitness +Eve runs at dawn/);
    const same = await runCli(["list", "--user", "eve", "--agent", "coder"], { home });
    expect(same.stdout).not.toContain("SCOPE");
  });

  it("warns that an expiry date in the past hides the memory at once", async () => {
    const home = newHome();
    const past = await runCli(
      ["add", "The 2020 offsite was in Porto", "--user", "fay", "--expires", "2020-06-30"],
      {
        home,
      },
    );
    expect(past.code).toBe(0);
    expect(past.stderr).toMatch(
      /^warning: --expires 2020-06-30 has passed: the memory is stored but hidden at once/m,
    );
    expect((await runJson(["list", "--user", "fay", "--show-expired"], { home })).json.total).toBe(1);
    const future = await runCli(["add", "Renew the lease", "--user", "fay", "--expires", "2099-01-01"], {
      home,
    });
    expect(future.stderr).toBe("");
  });
});
