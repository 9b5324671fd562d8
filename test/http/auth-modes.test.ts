/**
 * How `lucid serve` decides who it serves, fixed when it starts: revoking the last key does not
 * open it again; without keys only this machine is served whatever the bind; a broken keys.json
 * stops it before it listens, and one that breaks while it runs refuses requests without telling
 * why; wrong keys are rate-limited per address; concurrent `keys create` lose no key.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { EventRegistry } from "../../src/edge/events.js";
import { createKey, keysFileOf, matchKey, readKeys, revokeKey } from "../../src/http/key-store.js";
import { startRestServer } from "../../src/http/server.js";
import { isLucidError, openMemory } from "../../src/index.js";
import { BIN } from "../cli/run-cli.js";
import { wordEmbedder } from "../helpers/word-embedder.js";
import { startTestServer } from "./rest-server.js";

const roots: string[] = [];
afterAll(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
function tempHome(): string {
  const home = mkdtempSync(join(tmpdir(), "lucid-auth-"));
  roots.push(home);
  return home;
}

/** A raw request to 127.0.0.1:port, so Host and Origin can be anything; a body is sent as JSON (unless a Content-Type says otherwise). */
function raw(
  port: number,
  path: string,
  headers: Record<string, string> = {},
  body?: unknown,
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: "127.0.0.1",
        port,
        path,
        method: body === undefined ? "GET" : "POST",
        headers: body === undefined ? headers : { "Content-Type": "application/json", ...headers },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (chunk: string) => {
          text += chunk;
        });
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on("error", reject);
    req.end(body === undefined ? undefined : JSON.stringify(body));
  });
}

async function revokeAll(home: string): Promise<void> {
  for (const record of await readKeys(keysFileOf(home))) await revokeKey(keysFileOf(home), record.id);
}

describe("the mode is fixed when the server starts", () => {
  it("a loopback server that started with keys refuses everyone once the last key is revoked", async () => {
    const server = await startTestServer({ keys: [{ user_id: "alice" }] });
    try {
      const [alice] = server.keys as [string];
      expect((await server.call("/v1/ping/", { key: alice })).status).toBe(200);
      await revokeAll(server.home);
      const none = await server.call("/v1/ping/");
      expect(none.status).toBe(401);
      expect(none.body).toMatchObject({
        code: "UNAUTHORIZED",
        detail: expect.stringContaining("lucid keys create"),
      });
      expect((await server.call("/v1/ping/", { key: alice })).status).toBe(401);
      expect(
        (await server.call("/v3/memories/", { method: "POST", body: { user_id: "alice" } })).status,
      ).toBe(401);
    } finally {
      await server.close();
    }
  });

  it("a server on 0.0.0.0 whose keys are all revoked serves no foreign Host and no revoked key", async () => {
    const server = await startTestServer({
      keys: [{ user_id: "alice" }, { user_id: "bob" }],
      host: "0.0.0.0",
    });
    try {
      const [alice, bob] = server.keys as [string, string];
      expect(
        (
          await server.call("/v3/memories/add/", {
            method: "POST",
            key: bob,
            body: { messages: "Bob sails" },
          })
        ).status,
      ).toBe(200);
      await revokeAll(server.home);
      const foreign = `evil.example:${server.server.port}`;
      const rebound = await raw(
        server.server.port,
        "/v3/memories/",
        { Host: foreign, Origin: `http://${foreign}` },
        { filters: { user_id: "bob" } },
      );
      expect(rebound.status).toBe(401);
      expect(rebound.body).not.toContain("Bob sails");
      expect((await raw(server.server.port, "/v1/ping/", { Authorization: `Token ${alice}` })).status).toBe(
        401,
      );
      expect((await raw(server.server.port, "/v1/ping/")).status).toBe(401);
    } finally {
      await server.close();
    }
  });

  it("a keyless server refuses a foreign Host and every page but its own, and needs a key once one exists", async () => {
    const server = await startTestServer();
    try {
      const port = server.server.port;
      expect((await raw(port, "/v1/ping/")).status).toBe(200);
      expect((await raw(port, "/v1/ping/", { Host: `evil.example:${port}` })).status).toBe(403);
      expect(
        (
          await raw(port, "/v1/ping/", {
            Host: `evil.example:${port}`,
            Origin: `http://evil.example:${port}`,
          })
        ).status,
      ).toBe(403);
      expect((await raw(port, "/v1/ping/", { Origin: "https://evil.example" })).status).toBe(403);
      // A page another port of this machine serves may be anyone's script: a browser sends its
      // text/plain POSTs without a preflight, so only the server's own pages are served.
      for (const origin of ["http://localhost:9999", `http://127.0.0.1:${port + 1}`, "http://[::1]:8080"]) {
        const planted = await raw(
          port,
          "/v3/memories/add/",
          { Origin: origin, "Content-Type": "text/plain" },
          { messages: "Planted by a web page", user_id: "carol" },
        );
        expect(planted.status, origin).toBe(403);
      }
      expect((await server.memory.getAll({ userId: "carol" })).results).toEqual([]);
      const own = await raw(
        port,
        "/v3/memories/add/",
        { Origin: `http://127.0.0.1:${port}` },
        { messages: "Carol keeps bees", user_id: "carol" },
      );
      expect(own.status).toBe(200);
      const key = await server.key({ user_id: "alice" });
      expect((await raw(port, "/v1/ping/")).status).toBe(401);
      expect((await raw(port, "/v1/ping/", { Authorization: `Token ${key}` })).status).toBe(200);
      await revokeAll(server.home);
      expect((await raw(port, "/v1/ping/")).status).toBe(401);
    } finally {
      await server.close();
    }
  });
});

describe("a broken keys.json", () => {
  const memories: { close(): Promise<void> }[] = [];
  afterAll(async () => {
    for (const memory of memories) await memory.close();
  });
  async function startOn(home: string) {
    const memory = await openMemory({ path: join(home, "lucid.db"), embedder: wordEmbedder() });
    memories.push(memory);
    return startRestServer({ memory, events: new EventRegistry(), home, port: 0, rateLimit: null });
  }

  it("stops a loopback server before it listens, naming the file", async () => {
    for (const text of ["{not json", JSON.stringify({ keys: [{ nope: true }] })]) {
      const home = tempHome();
      writeFileSync(keysFileOf(home), text);
      const error = await startOn(home).catch((caught: unknown) => caught);
      expect(isLucidError(error, "INVALID_CONFIG")).toBe(true);
      expect((error as Error).message).toContain(keysFileOf(home));
    }
  });

  it("treats a key record with an empty scope id as a broken file", async () => {
    const home = tempHome();
    const { record } = await createKey(keysFileOf(home), { user_id: "alice" });
    writeFileSync(keysFileOf(home), JSON.stringify({ keys: [{ ...record, scope: { user_id: "" } }] }));
    const error = await startOn(home).catch((caught: unknown) => caught);
    expect(isLucidError(error, "INVALID_CONFIG")).toBe(true);
    expect((error as Error).message).toContain("user_id");
  });

  it("that breaks while the server runs gets 503 without a path, and the reason is logged", async () => {
    const logged: string[] = [];
    const server = await startTestServer({ keys: [{ user_id: "alice" }], log: (line) => logged.push(line) });
    try {
      const [alice] = server.keys as [string];
      const file = keysFileOf(server.home);
      const good = (await readKeys(file))[0];
      for (const broken of ["{not json", JSON.stringify({ keys: [{ ...good, scope: { user_id: "" } }] })]) {
        writeFileSync(file, broken);
        const refused = await server.call("/v1/ping/", { key: alice });
        expect(refused.status).toBe(503);
        expect(JSON.stringify(refused.body)).not.toContain(server.home);
        expect(logged.join("")).toContain(file);
      }
      writeFileSync(file, JSON.stringify({ keys: [good] }));
      expect((await server.call("/v1/ping/", { key: alice })).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it("makes the `lucid serve` binary exit non-zero with the message", { timeout: 60_000 }, async () => {
    const home = tempHome();
    mkdirSync(home, { recursive: true });
    writeFileSync(keysFileOf(home), "{not json");
    const child = spawn(process.execPath, [BIN, "serve", "--port", "0"], {
      env: { ...process.env, LUCID_HOME: home },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stderr = "";
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
    });
    const exit = await new Promise<number | null>((resolve) => {
      const kill = setTimeout(() => child.kill("SIGKILL"), 50_000);
      child.on("exit", (code) => {
        clearTimeout(kill);
        resolve(code);
      });
    });
    expect(stderr).not.toContain("listening on");
    expect(exit).not.toBe(0);
    expect(exit).not.toBeNull();
    expect(stderr).toContain(keysFileOf(home));
  });
});

describe("failed authentication", () => {
  it("is limited per client address (429 with Retry-After), while a valid key from that address is still served", async () => {
    const server = await startTestServer({
      keys: [{ user_id: "alice" }],
      failureLimit: { perSecond: 0.01, burst: 3 },
    });
    try {
      const [alice] = server.keys as [string];
      expect((await server.call("/v1/ping/", { key: alice })).status).toBe(200);
      const statuses: number[] = [];
      for (let i = 0; i < 5; i++)
        statuses.push((await server.call("/v1/ping/", { key: "lucid_wrong" })).status);
      expect(statuses).toEqual([401, 401, 401, 429, 429]);
      const limited = await server.call("/v1/ping/", { key: "lucid_wrong" });
      expect(limited.body).toMatchObject({ code: "RATE_LIMITED" });
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      // Every local agent shares 127.0.0.1: another's bad keys do not lock alice's out.
      expect((await server.call("/v1/ping/", { key: alice })).status).toBe(200);
      expect((await server.call("/v1/ping/")).status).toBe(429);
    } finally {
      await server.close();
    }
  });
});

describe("lucid keys create", () => {
  it("loses no key when several run at once", async () => {
    const file = keysFileOf(tempHome());
    const created = await Promise.all(
      Array.from({ length: 8 }, (_, index) => createKey(file, { user_id: `user${index}` })),
    );
    const stored = await readKeys(file);
    expect(stored.map((record) => record.id).sort()).toEqual(created.map(({ record }) => record.id).sort());
    for (const { key, record } of created) expect(matchKey(stored, key)?.id).toBe(record.id);
    expect(existsSync(`${file}.lock`)).toBe(false);
  });
});
