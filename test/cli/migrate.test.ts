/**
 * `lucid migrate` as a user runs it: the built CLI, a store made with `lucid add`, copied into
 * PostgreSQL (the test server, when `LUCID_PG_URL` names one) or into another SQLite file, and then
 * used through a home whose lucid.config.json points at the copy.
 */

import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { useFakeEmbeddingServer, writeFakeEmbedderHome } from "../helpers/fake-openai-server.js";
import { dropSchemas, postgresTestUrl, uniqueSchema } from "../helpers/postgres.js";
import { type CliResult, runCli, runJson, spawnCli, tempHomes } from "./run-cli.js";

const tempHome = tempHomes();
const server = useFakeEmbeddingServer();
const newHome = () => writeFakeEmbedderHome(tempHome(), server);

const json = (result: CliResult): Record<string, unknown> => {
  try {
    return JSON.parse(result.stdout) as Record<string, unknown>;
  } catch {
    throw new Error(`not one JSON document:\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
};

/** A home with three memories made by the CLI, one of them deleted again (its history stays). */
async function homeWithMemories(): Promise<{ home: string; ids: string[] }> {
  const home = newHome();
  const ids: string[] = [];
  for (const text of ["Alice drinks oolong tea", "Alice lives in Kyoto", "Alice's old phone number"]) {
    const added = json(await spawnCli(["add", text, "--user", "alice", "--json"], { home }));
    ids.push(...(added.results as { id: string }[]).map((result) => result.id));
  }
  const deleted = await spawnCli(["delete", ids[2] ?? "", "--json"], { home });
  expect(deleted.code).toBe(0);
  return { home, ids: ids.slice(0, 2) };
}

/** A home that uses the store `store` names, with the same embedder as the source. */
function homeUsing(store: Record<string, unknown>, source: string): string {
  const home = tempHome();
  writeFakeEmbedderHome(home, server);
  const config = JSON.parse(readFileSync(join(source, "lucid.config.json"), "utf8")) as Record<
    string,
    unknown
  >;
  writeFileSync(join(home, "lucid.config.json"), JSON.stringify({ ...config, store }));
  return home;
}

const listed = async (home: string, env: Record<string, string> = {}) =>
  (json(await spawnCli(["list", "--user", "alice", "--json"], { home, env })).results as { id: string }[])
    .map((memory) => memory.id)
    .sort();

describe("lucid migrate", () => {
  it("copies the home's store into a SQLite file, which a home then uses as it was", async () => {
    const { home, ids } = await homeWithMemories();
    const copyHome = homeUsing({ provider: "sqlite" }, home);
    const result = await spawnCli(["migrate", "--to", join(copyHome, "lucid.db")], { home });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`Copied ${join(home, "lucid.db")} → ${join(copyHome, "lucid.db")}`);
    expect(result.stdout).toMatch(/^memory\s+2$/m);
    expect(result.stdout).toMatch(/^history\s+4$/m);
    expect(result.stdout).toContain("Verified");
    expect(await listed(copyHome)).toEqual([...ids].sort());
    const history = json(await spawnCli(["history", ids[0] ?? "", "--json"], { home: copyHome }));
    expect(history).toMatchObject({ ok: true });
  });

  it("refuses a target that is not empty, and says why", async () => {
    const { home } = await homeWithMemories();
    const other = await homeWithMemories();
    const refused = await runJson(["migrate", "--to", join(other.home, "lucid.db")], { home });
    expect(refused.code).toBe(1);
    expect(refused.json).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT" } });
    expect(String((refused.json.error as { message: string }).message)).toContain("not empty");
  });

  it("reports usage errors and a missing source", async () => {
    const home = newHome();
    expect((await runCli(["migrate"], { home })).code).toBe(2);
    const schemaForFile = await runJson(["migrate", "--to", join(home, "x.db"), "--schema", "s"], { home });
    expect(schemaForFile.json).toMatchObject({ ok: false, error: { code: "USAGE" } });
    const same = await runJson(["migrate", "--to", join(home, "lucid.db")], { home });
    expect(same.json).toMatchObject({ ok: false, error: { code: "USAGE" } });
    const missing = await runJson(["migrate", "--from", join(home, "none.db"), "--to", join(home, "x.db")], {
      home,
    });
    expect(missing.json).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT" } });
    expect(existsSync(join(home, "x.db"))).toBe(false);
  });

  const url = postgresTestUrl();
  describe.skipIf(url === undefined)("into PostgreSQL", () => {
    const schemas: string[] = [];
    afterAll(() => dropSchemas(url ?? "", schemas));
    // The test server trusts local connections: a password in the URL is accepted, and must never be printed.
    const withPassword = (url ?? "").replace("postgres://postgres@", "postgres://postgres:hunter2-secret@");
    it("has a password to hide (the test server's URL is postgres://postgres@…)", () => {
      expect(withPassword).not.toBe(url);
    });

    it("copies the home's store into a new schema, verified, and the home then runs on it", async () => {
      const { home, ids } = await homeWithMemories();
      const schema = uniqueSchema("lucid_migrate");
      schemas.push(schema);
      const copied = await spawnCli(["migrate", "--to", withPassword, "--schema", schema, "--json"], {
        home,
      });
      expect(copied.code).toBe(0);
      const result = json(copied);
      expect(result).toMatchObject({
        ok: true,
        verified: true,
        from: join(home, "lucid.db"),
        counts: { store: 1, memory: 2, history: 4, message: 3 },
        switch: {
          store: { provider: "postgres", url: { env: "LUCID_PG_URL" }, schema },
          env: { LUCID_PG_URL: expect.stringContaining(":***@") },
        },
      });
      expect(copied.stdout + copied.stderr).not.toContain("hunter2-secret");

      const pgHome = homeUsing({ provider: "postgres", url: { env: "LUCID_PG_URL" }, schema }, home);
      const env = { LUCID_PG_URL: url ?? "" };
      const status = json(await spawnCli(["status", "--json"], { home: pgHome, env }));
      expect(status).toMatchObject({
        ok: true,
        backend: { name: "postgres" },
        total: 2,
        byScope: { user_id: { alice: 2 } },
      });
      expect(await listed(pgHome, env)).toEqual([...ids].sort());
      // The copy keeps working: a memory added through it is found next to the copied ones.
      expect(
        (await spawnCli(["add", "Alice has a cat", "--user", "alice"], { home: pgHome, env })).code,
      ).toBe(0);
      expect(await listed(pgHome, env)).toHaveLength(3);

      // The URL's variable is read only by what opens the store: `config` works without it,
      // `list` says which variable is missing.
      const configured = await spawnCli(["config", "--json"], { home: pgHome });
      expect(configured.code).toBe(0);
      expect(configured.stdout).toContain('"LUCID_PG_URL"');
      const unset = await spawnCli(["list", "--user", "alice", "--json"], { home: pgHome });
      expect(json(unset)).toMatchObject({ ok: false, error: { code: "INVALID_CONFIG" } });
      expect(unset.stdout).toContain("LUCID_PG_URL");
    });

    it("prints the counts and how to switch, never the password, and refuses to copy twice", async () => {
      const { home } = await homeWithMemories();
      const schema = uniqueSchema("lucid_migrate");
      schemas.push(schema);
      const human = await spawnCli(["migrate", "--to", withPassword, "--schema", schema], { home });
      expect(human.code).toBe(0);
      expect(human.stdout).toMatch(/^Kind\s+Records$/m);
      expect(human.stdout).toMatch(/^memory\s+2$/m);
      expect(human.stdout).toContain('"store"');
      expect(human.stdout).toContain(
        `{"provider":"postgres","url":{"env":"LUCID_PG_URL"},"schema":"${schema}"}`,
      );
      expect(human.stdout).toContain("export LUCID_PG_URL=postgres://postgres:***@");
      const again = await spawnCli(["migrate", "--to", withPassword, "--schema", schema], { home });
      expect(again.code).toBe(1);
      expect(again.stderr).toContain("not empty");
      expect(human.stdout + human.stderr + again.stdout + again.stderr).not.toContain("hunter2-secret");

      // And back: the PostgreSQL copy into a SQLite file.
      const back = homeUsing({ provider: "sqlite" }, home);
      const returned = await spawnCli(
        [
          "migrate",
          "--from",
          withPassword,
          "--from-schema",
          schema,
          "--to",
          join(back, "lucid.db"),
          "--json",
        ],
        { home },
      );
      expect(json(returned)).toMatchObject({ ok: true, counts: { memory: 2, history: 4 } });
      expect(await listed(back)).toEqual(await listed(home));
    });
  });
});
