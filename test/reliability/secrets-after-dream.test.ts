/**
 * Issue 11, major 9: a credential stored under `onAdd: "allow"` (or before redaction existed) that a
 * dream takes out of a memory stayed, in full, in the memory's history, its scope's messages and the
 * run's preimage, and `lucid history` / `lucid dream show` printed it. Now: output masks detected
 * credentials unless `--reveal`; the dream scrubs history and messages; the preimage keeps the value
 * for exact undo unless `--purge-secrets`; `lucid purge <id>` erases a memory and every trace of it,
 * down to the file's bytes.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { describe, expect, it } from "vitest";
import { createOpenAICompatibleEmbedder, type Memory, openMemory } from "../../src/index.js";
import { createMcpServer } from "../../src/mcp/server.js";
import { runCli, runJson, tempHomes } from "../cli/run-cli.js";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";
import { useFakeEmbeddingServer } from "../helpers/fake-openai-server.js";

const secrets = createFakeSecrets(11);
const tokenA = secrets["github-pat"]?.() ?? "";
const tokenB = secrets["github-pat"]?.() ?? "";
const homes = tempHomes();
const server = useFakeEmbeddingServer();

/** A home whose policy stores credentials as given: how they got in before redaction existed. */
function allowingHome(): string {
  const home = homes();
  mkdirSync(home, { recursive: true });
  writeFileSync(
    join(home, "lucid.config.json"),
    JSON.stringify({
      embedder: { provider: "openai-compatible", baseURL: server.baseURL, model: "fake", dimension: 8 },
      policy: { secrets: { onAdd: "allow" } },
    }),
  );
  return home;
}

/** The store's bytes on disk, write-ahead log included: where an erased value must not be. */
function fileBytes(home: string): string {
  const db = join(home, "lucid.db");
  return [db, `${db}-wal`]
    .filter((path) => existsSync(path))
    .map((path) => readFileSync(path).toString("latin1"))
    .join("");
}

/** The bodies of the tokens, as the keyword index keeps them too (lower case, split at `_`). */
const traces = (token: string) => [token, token.slice(4).toLowerCase()];

async function seed(home: string): Promise<{ credential: string; useful: string }> {
  const add = async (text: string) => {
    const { json } = await runJson(["add", text, "--user", "alice", "--reveal"], { home });
    return (json.results as { id: string }[])[0]?.id as string;
  };
  const credential = await add(`The staging deploy token is ${tokenA}`);
  const useful = await add(`Deploy billing-api with token ${tokenB} from the CI runner every Monday morning`);
  await runCli(["update", useful, "--metadata", '{"team":"payments"}'], { home });
  return { credential, useful };
}

/** The home's store through the SDK, with the embedder and policy the CLI uses. */
function openStore(home: string): Promise<Memory> {
  return openMemory({
    path: join(home, "lucid.db"),
    embedder: createOpenAICompatibleEmbedder({ baseURL: server.baseURL, model: "fake", dimension: 8 }),
    policy: { secrets: { onAdd: "allow" } },
  });
}

async function messagesOf(home: string): Promise<string> {
  const memory = await openStore(home);
  const context = await memory.ready();
  const messages = await context.store.listMessages("user_id=alice");
  await memory.close();
  return JSON.stringify(messages);
}

describe("output masks stored credentials", () => {
  it("in get, list, search and history, unless --reveal, and says so on stderr", async () => {
    const home = allowingHome();
    const { useful } = await seed(home);
    for (const args of [
      ["get", useful],
      ["list", "--user", "alice"],
      ["search", "billing runner", "--user", "alice", "--mode", "keyword", "--threshold", "0"],
      ["history", useful],
    ]) {
      const masked = await runCli(args, { home });
      expect(masked.code, args.join(" ")).toBe(0);
      expect(masked.stdout, args.join(" ")).not.toContain(tokenB);
      expect(masked.stdout, args.join(" ")).toContain("[MASKED:github-pat]");
      expect(masked.stderr).toMatch(/masked as \[MASKED:kind\]; --reveal prints them/);
      const json = await runJson(args, { home });
      expect(JSON.stringify(json.json)).not.toContain(tokenB);
      const revealed = await runCli([...args, "--reveal"], { home });
      expect(revealed.stdout.replace(/\s+/g, "")).toContain(tokenB);
    }
  });

  it("in MCP replies, always", async () => {
    const home = allowingHome();
    const { useful } = await seed(home);
    const memory = await openStore(home);
    const mcp = createMcpServer({ memory, defaults: { userId: "alice" }, autoDream: { enabled: false } });
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await mcp.connect(serverSide);
    const client = new Client({ name: "test", version: "1" });
    await client.connect(clientSide);
    for (const [name, args] of [
      ["memory_get", { memory_id: useful }],
      ["memory_list", {}],
    ] as const) {
      const reply = await client.callTool({ name, arguments: args });
      expect(JSON.stringify(reply), name).not.toContain(tokenB);
      expect(JSON.stringify(reply), name).toContain("[MASKED:github-pat]");
    }
    await client.close();
    await memory.close();
  });
});

describe("a dream that removes credentials", () => {
  it("scrubs them from history and messages; the run keeps them for an exact undo", async () => {
    const home = allowingHome();
    const { credential, useful } = await seed(home);
    expect(await messagesOf(home)).toContain(tokenA);

    const dream = await runJson(["dream", "--user", "alice", "--yes"], { home });
    expect(dream.json).toMatchObject({ applied: true, secrets: { memories: 2, purged: false } });
    const runId = dream.json.runId as string;

    for (const id of [credential, useful]) {
      const history = await runCli(["history", id, "--reveal"], { home });
      expect(history.stdout).not.toContain(tokenA);
      expect(history.stdout).not.toContain(tokenB);
      expect(history.stdout).toContain("[REDACTED:github-pat]");
    }
    const messages = await messagesOf(home);
    expect(messages).not.toContain(tokenA);
    expect(messages).not.toContain(tokenB);

    // `dream show` masks the preimages it prints; they are still there, for undo.
    const show = await runCli(["dream", "show", runId], { home });
    expect(show.stdout).not.toContain(tokenA);
    expect(show.stdout).toMatch(/preimages keep them, so undo restores them exactly/);
    const revealed = await runCli(["dream", "show", runId, "--reveal"], { home });
    expect(revealed.stdout).toContain(tokenA);

    expect((await runCli(["dream", "undo", runId], { home })).code).toBe(0);
    const back = await runJson(["get", useful, "--reveal"], { home });
    expect((back.json.result as { memory: string }).memory).toContain(tokenB);
  });

  it("with --purge-secrets, erases them from the preimages and the file; undo restores the redacted text", async () => {
    const home = allowingHome();
    const { credential, useful } = await seed(home);
    // An earlier run, with the detector's rule off, that rewrote a memory and kept its credential
    // in the preimage.
    const { json: added } = await runJson(
      ["add", `I rotate ${tokenA} on the first Monday of every month for billing`, "--user", "alice"],
      { home },
    );
    const firstPerson = (added.results as { id: string }[])[0]?.id as string;
    const policy = join(home, "no-github-rule.json");
    // The generic "token <value>" rule would still see the token: off too.
    writeFileSync(policy, JSON.stringify({ secrets: { disabledRules: ["github-pat", "secret-label"] } }));
    const earlier = await runJson(["dream", "--user", "alice", "--yes", "--policy", policy], { home });
    expect(earlier.json).toMatchObject({ applied: true });
    const earlierRun = await runJson(["dream", "show", earlier.json.runId as string, "--reveal"], { home });
    expect(JSON.stringify(earlierRun.json)).toContain(tokenA);

    const dream = await runJson(["dream", "--user", "alice", "--yes", "--purge-secrets"], { home });
    // This run's preimages of the two memories it redacts, and the earlier run's that held a token.
    expect(dream.json).toMatchObject({ applied: true, secrets: { memories: 2, preimages: 4, purged: true } });
    for (const token of [tokenA, tokenB]) {
      for (const trace of traces(token)) expect(fileBytes(home)).not.toContain(trace);
    }

    expect((await runCli(["dream", "undo", dream.json.runId as string], { home })).code).toBe(0);
    const restored = await runJson(["get", useful, "--reveal"], { home });
    expect((restored.json.result as { memory: string }).memory).toBe(
      "Deploy billing-api with token [REDACTED:github-pat] from the CI runner every Monday morning",
    );
    // Undoing the earlier run restores its preimages, scrubbed as well.
    expect((await runCli(["dream", "undo", earlier.json.runId as string, "--force"], { home })).code).toBe(0);
    const texts = await Promise.all(
      [firstPerson, credential].map(async (id) => {
        const { json } = await runJson(["get", id, "--reveal"], { home });
        return (json.result as { memory: string }).memory;
      }),
    );
    expect(texts).toEqual([
      "I rotate [REDACTED:github-pat] on the first Monday of every month for billing",
      "The staging deploy token is [REDACTED:github-pat]",
    ]);
    for (const token of [tokenA, tokenB]) {
      for (const trace of traces(token)) expect(fileBytes(home)).not.toContain(trace);
    }
  });

  it("refuses --purge-secrets where nobody chose what to remove", async () => {
    const home = allowingHome();
    const refused = await runCli(["dream", "--user", "alice", "--auto", "--purge-secrets"], { home });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/--purge-secrets goes with --yes or the interactive dream/);
  });
});

describe("lucid purge <id>", () => {
  it("erases a deleted memory's history, preimages and credentials, down to the file's bytes", async () => {
    const home = allowingHome();
    const { credential, useful } = await seed(home);
    const dream = await runJson(["dream", "--user", "alice", "--yes"], { home });
    expect(fileBytes(home)).toContain(tokenA); // the run's preimage keeps it, for undo

    const unconfirmed = await runCli(["purge", credential], { home });
    expect(unconfirmed.code).toBe(2);
    expect(unconfirmed.stderr).toMatch(/cannot be undone: pass --yes/);

    const purged = await runJson(["purge", credential, "--yes"], { home });
    expect(purged.json).toMatchObject({ ok: true, deleted: false, runs: 1, compacted: true });
    expect((purged.json.history as number) > 0).toBe(true);
    for (const trace of traces(tokenA)) expect(fileBytes(home)).not.toContain(trace);
    const history = await runCli(["history", credential], { home });
    expect(history.code).toBe(1);

    // Undo of the run still restores the other memory, and no longer knows the purged one.
    const undone = await runJson(["dream", "undo", dream.json.runId as string], { home });
    expect(undone.json).toMatchObject({ restored: 1 });
    expect((await runJson(["get", useful, "--reveal"], { home })).json.result).toMatchObject({
      memory: expect.stringContaining(tokenB),
    });
    expect((await runCli(["get", credential], { home })).code).toBe(1);
  });

  it("says when there is nothing to purge", async () => {
    const home = allowingHome();
    await seed(home);
    const missing = await runJson(["purge", "no-such-id", "--yes"], { home });
    expect(missing.json).toMatchObject({ ok: false, error: { code: "MEMORY_NOT_FOUND" } });
  });
});
