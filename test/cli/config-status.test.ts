import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeEmbeddingServer, startFakeEmbeddingServer } from "../helpers/fake-openai-server.js";
import { connectStdio } from "../mcp/mcp-client.js";
import { runCli, runJson, tempHomes } from "./run-cli.js";

const newHome = tempHomes();

function writeConfig(home: string, config: unknown): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "lucid.config.json"), JSON.stringify(config, null, 2));
}

describe("init and config", () => {
  it("writes a documented default config once, which then loads", async () => {
    const home = newHome();
    const first = await runJson(["init"], { home });
    expect(first.json).toEqual({ ok: true, path: join(home, "lucid.config.json"), created: true });
    const written = JSON.parse(readFileSync(join(home, "lucid.config.json"), "utf8"));
    expect(written).toMatchObject({
      $comment: expect.any(String),
      embedder: { provider: "local" },
      maxTextBytes: 32768,
    });

    expect((await runJson(["init"], { home })).json).toMatchObject({ ok: true, created: false });
    writeFileSync(join(home, "lucid.config.json"), "{ broken");
    expect((await runJson(["init", "--force"], { home })).json).toMatchObject({ ok: true, created: true });

    const shown = await runJson(["config"], { home });
    expect(shown.json).toMatchObject({
      ok: true,
      exists: true,
      database: join(home, "lucid.db"),
      config: { embedder: { provider: "local" }, policy: { categories: {} }, defaults: {} },
    });
  });

  it("works without init: defaults apply", async () => {
    const home = newHome();
    const { json } = await runJson(["config"], { home });
    expect(json).toMatchObject({ ok: true, exists: false, config: { embedder: { provider: "local" } } });
  });

  it("rejects an unknown key or a bad type, naming the key and the file", async () => {
    const home = newHome();
    writeConfig(home, { embedder: { provider: "local", modle: "x" } });
    const unknown = await runJson(["list", "--user", "a"], { home });
    expect(unknown.code).toBe(1);
    expect(unknown.json).toMatchObject({ ok: false, error: { code: "INVALID_CONFIG" } });
    const message = (unknown.json.error as { message: string }).message;
    expect(message).toContain(join(home, "lucid.config.json"));
    expect(message).toContain("embedder.modle");

    writeConfig(home, { maxTextBytes: "big" });
    const badType = await runCli(["list", "--user", "a"], { home });
    expect(badType.code).toBe(1);
    expect(badType.stderr).toMatch(
      /^error\[INVALID_CONFIG\]: .*lucid\.config\.json: maxTextBytes must be a positive integer/,
    );
    expect(badType.stderr).toMatch(/^hint: /m);

    writeConfig(home, { colour: "blue" });
    expect((await runJson(["status"], { home })).json).toMatchObject({ error: { code: "INVALID_CONFIG" } });
  });

  it("resolves an { env } reference only in the command that needs it (the README's MCP token)", async () => {
    const home = newHome();
    writeConfig(home, { mcp: { token: { env: "LUCID_TEST_MCP_TOKEN" } } });
    for (const args of [["list", "--user", "kim"], ["status"], ["config"]]) {
      const { code, stderr } = await runCli(args, { home });
      expect({ args, code, stderr }).toMatchObject({ code: 0, stderr: "" });
    }
    const stdio = await connectStdio({ home });
    try {
      expect((await stdio.client.listTools()).tools.length).toBeGreaterThan(0);
    } finally {
      await stdio.close();
    }
    const http = await runJson(["mcp", "--http", "--port", "0"], { home });
    expect(http.json).toMatchObject({ ok: false, error: { code: "INVALID_CONFIG" } });
    expect((http.json.error as { message: string }).message).toMatch(
      /mcp\.token .*LUCID_TEST_MCP_TOKEN.* not set/,
    );
  });

  it("resolves { env } references and never prints secrets", async () => {
    const home = newHome();
    writeConfig(home, {
      embedder: {
        provider: "openai-compatible",
        baseURL: "http://127.0.0.1:9/v1",
        model: "fake",
        dimension: 8,
        apiKey: { env: "TEST_EMBED_KEY" },
        headers: { "x-team-token": "literal-header-secret" },
      },
      llm: { provider: "anthropic", model: "claude-x", apiKey: "literal-llm-secret" },
      mcp: { token: "literal-mcp-token" },
      dream: { gate: { minHours: 12, minSessions: 3 } },
    });
    // The key's variable is unset: showing the config needs no key, embedding does.
    const missing = await runJson(["config"], { home });
    expect(missing.json).toMatchObject({
      ok: true,
      config: { embedder: { apiKey: { env: "TEST_EMBED_KEY" } } },
    });
    const embedding = await runJson(["add", "Needs the key", "--user", "kim"], { home });
    expect(embedding.json).toMatchObject({ ok: false, error: { code: "INVALID_CONFIG" } });
    expect((embedding.json.error as { message: string }).message).toMatch(
      /embedder\.apiKey .*TEST_EMBED_KEY.* not set/,
    );

    const env = { TEST_EMBED_KEY: "sk-resolved-secret" };
    for (const args of [["config"], ["config", "--json"]]) {
      const { stdout, code } = await runCli(args, { home, env });
      expect(code).toBe(0);
      expect(stdout).not.toMatch(
        /sk-resolved-secret|literal-header-secret|literal-llm-secret|literal-mcp-token/,
      );
    }
    const shown = await runJson(["config"], { home, env });
    expect(shown.json.config).toMatchObject({
      embedder: { apiKey: { env: "TEST_EMBED_KEY" }, headers: { "x-team-token": "********" } },
      llm: { apiKey: "********" },
      mcp: { token: "********" },
      dream: { gate: { minHours: 12, minSessions: 3 } },
    });
  });

  it("takes the default scope from flags, then LUCID_USER_ID…, then the config", async () => {
    const home = newHome();
    writeConfig(home, { defaults: { userId: "from-config", appId: "cfg-app" } });
    const add = async (text: string, flags: string[], env: Record<string, string> = {}) =>
      ((await runJson(["add", text, ...flags], { home, env })).json.results as { id: string }[])[0]
        ?.id as string;
    const get = async (id: string) =>
      (await runJson(["get", id], { home })).json.result as Record<string, unknown>;

    expect(await get(await add("fact one", []))).toMatchObject({ user_id: "from-config", app_id: "cfg-app" });
    expect(await get(await add("fact two", [], { LUCID_USER_ID: "from-env" }))).toMatchObject({
      user_id: "from-env",
    });
    expect(
      await get(await add("fact three", ["--user", "from-flag"], { LUCID_USER_ID: "from-env" })),
    ).toMatchObject({
      user_id: "from-flag",
      app_id: "cfg-app",
    });

    const scope = await runJson(["config"], { home, env: { LUCID_AGENT_ID: "bot" } });
    expect(scope.json.defaultScope).toEqual({
      userId: { value: "from-config", from: "config" },
      agentId: { value: "bot", from: "LUCID_AGENT_ID" },
      appId: { value: "cfg-app", from: "config" },
    });
    // A scope key named in --filters is not AND-ed with a default of the same key.
    const listed = await runJson(["list", "--filters", '{"user_id":"from-flag"}'], { home });
    expect(listed.json.total).toBe(1);
  });
});

describe("status and reembed", () => {
  let server: FakeEmbeddingServer;
  beforeAll(async () => {
    server = await startFakeEmbeddingServer({ dimension: 8 });
  });
  afterAll(() => server.close());

  it("shows counts, switches embedders with reembed, and masks the key", async () => {
    const home = newHome();
    for (const [text, user, category] of [
      ["Nora keeps bees", "nora", "identity"],
      ["Nora's hive is behind the shed", "nora", "project"],
      ["Omar runs on Sundays", "omar", ""],
    ] as const) {
      await runJson(["add", text, "--user", user, ...(category ? ["--category", category] : [])], { home });
    }
    const before = await runJson(["status"], { home });
    expect(before.json).toMatchObject({
      ok: true,
      home,
      location: join(home, "lucid.db"),
      backend: { name: "sqlite", ann: false, concurrentWriters: false },
      schemaVersion: expect.any(Number),
      embedder: { id: "minilm-l6-v2@0.1.0", dimension: 384 },
      pendingEmbedder: null,
      defaultEmbedder: null,
      total: 3,
      expired: 0,
      byScope: { user_id: { nora: 2, omar: 1 } },
      byCategory: { identity: 1, project: 1 },
    });
    const human = await runCli(["status"], { home });
    expect(human.stdout).toMatch(/^Embedder\s+minilm-l6-v2@0\.1\.0 \(384-d\)$/m);
    expect(human.stdout).toMatch(/^Users\s+nora 2 · omar 1$/m);

    writeConfig(home, {
      embedder: {
        provider: "openai-compatible",
        baseURL: server.baseURL,
        model: "fake",
        dimension: 8,
        apiKey: { env: "FAKE_KEY" },
      },
    });
    const env = { FAKE_KEY: "sk-test-secret" };
    const mismatch = await runJson(["add", "Another fact", "--user", "nora"], { home, env });
    expect(mismatch.json).toMatchObject({ ok: false, error: { code: "EMBEDDER_MISMATCH" } });

    const pending = await runCli(["status", "--json"], { home, env });
    expect(pending.stdout).not.toContain("sk-test-secret");
    expect(JSON.parse(pending.stdout)).toMatchObject({
      pendingEmbedder: { id: "openai-compatible:fake", dimension: 8 },
      config: { embedder: { apiKey: { env: "FAKE_KEY" } } },
    });
    expect((await runCli(["status"], { home, env })).stdout).toMatch(
      /^Pending\s+openai-compatible:fake \(8-d\): run `lucid reembed`/m,
    );

    const reembedded = await runJson(["reembed", "--batch-size", "2"], { home, env });
    expect(reembedded.json).toEqual({
      ok: true,
      reembedded: 3,
      total: 3,
      embedder: { id: "openai-compatible:fake", dimension: 8 },
    });
    expect(server.requests.at(-1)?.headers.authorization).toBe("Bearer sk-test-secret");

    const again = await runCli(["reembed"], { home, env });
    expect(again.stdout).toMatch(/already embedded with openai-compatible:fake/);
    const search = await runJson(["search", "bees", "--user", "nora"], { home, env });
    expect(search.json).toMatchObject({ ok: true });
    expect((await runJson(["status"], { home, env })).json).toMatchObject({
      embedder: { id: "openai-compatible:fake", dimension: 8 },
      pendingEmbedder: null,
    });
  });
});
