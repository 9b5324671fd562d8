/**
 * `lucid keys` in process, and `lucid serve` as the built binary: it listens, answers MemoryClient's
 * ping with a key made by `lucid keys create`, serves the built web UI and a workspace's sleep
 * routes, and stops cleanly on SIGTERM.
 */
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { BIN, runCli, runJson, tempHomes } from "../cli/run-cli.js";

const newHome = tempHomes();

describe("lucid keys", () => {
  it("creates a key bound to a scope, shown once and stored hashed in a 0600 file; lists and revokes it", async () => {
    const home = newHome();
    const created = await runJson(["keys", "create", "--user", "alice", "--agent", "coder"], { home });
    expect(created.code).toBe(0);
    const key = created.json.key as string;
    const id = created.json.id as string;
    expect(key).toMatch(/^lucid_[A-Za-z0-9_-]{43}$/);
    expect(created.json.scope).toEqual({ user_id: "alice", agent_id: "coder" });
    const file = join(home, "keys.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(readFileSync(file, "utf8")).not.toContain(key.slice(6));

    const human = await runCli(["keys", "list"], { home });
    expect(human.stdout).toContain(id);
    expect(human.stdout).toContain("user_id=alice agent_id=coder");
    expect(human.stdout).not.toContain(key);

    expect((await runCli(["keys", "revoke", id], { home })).code).toBe(0);
    const listed = await runJson(["keys", "list"], { home });
    expect(listed.json.keys).toEqual([]);
  });

  it("refuses a key without a scope, an unknown id and an unknown action", async () => {
    const home = newHome();
    const bare = await runJson(["keys", "create"], { home });
    expect(bare.code).toBe(1);
    expect(bare.json).toMatchObject({ ok: false, error: { code: "SCOPE_REQUIRED" } });
    const unknown = await runJson(["keys", "revoke", "key_00000000"], { home });
    expect(unknown.json).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT" } });
    expect((await runCli(["keys", "rotate"], { home })).code).toBe(2);
  });
});

describe("lucid serve", () => {
  it("refuses a non-loopback address without keys", async () => {
    const result = await runJson(["serve", "--host", "0.0.0.0", "--port", "0"], { home: newHome() });
    expect(result.code).toBe(1);
    expect(result.json).toMatchObject({ ok: false, error: { code: "INVALID_ARGUMENT" } });
    const text = await runCli(["serve", "--host", "0.0.0.0", "--port", "0"], { home: newHome() });
    expect(text.stderr).toContain("lucid keys create");
    expect(text.stderr).not.toContain("lucid.config.json");
  });

  it("serves the binary's REST API until SIGTERM", async () => {
    const home = newHome();
    const key = (await runJson(["keys", "create", "--user", "alice"], { home })).json.key as string;
    const { url, child, exited } = await startServe(home, ["--port", "0"]);
    try {
      const ping = await fetch(`${url}/v1/ping/`, { headers: { Authorization: `Token ${key}` } });
      expect(await ping.json()).toEqual({ status: "ok", org_id: "lucid", project_id: "local" });
      const refused = await fetch(`${url}/v1/ping/`);
      expect(refused.status).toBe(401);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited).toBe(0);
  });

  it("serves the built web UI at / and the sleep routes of --workspace", async () => {
    const home = newHome();
    const workspace = mkdtempSync(join(tmpdir(), "lucid-serve-ws-"));
    cpSync(FIXTURE_WORKSPACE, workspace, { recursive: true });
    const { url, child, exited } = await startServe(home, ["--port", "0", "--workspace", workspace]);
    try {
      const page = await fetch(`${url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(page.headers.get("content-security-policy")).toContain("default-src 'self'");
      const html = await page.text();
      expect(html).toContain("/ui/app.js");
      const script = await fetch(`${url}/ui/app.js`);
      expect(script.status).toBe(200);
      expect(script.headers.get("content-type")).toContain("text/javascript");

      const info = (await (await fetch(`${url}/lucid/v1/info`)).json()) as Record<string, unknown>;
      expect(info.workspace).toBe(realpathSync(workspace));
      const status = await fetch(`${url}/lucid/v1/sleep/status`);
      expect(status.status).toBe(200);
      expect(((await status.json()) as { memoryFile: string }).memoryFile).toContain("MEMORY.md");
      const doc = (await (await fetch(`${url}/openapi.json`)).json()) as { openapi: string };
      expect(doc.openapi).toMatch(/^3\.1\./);
    } finally {
      child.kill("SIGTERM");
      rmSync(workspace, { recursive: true, force: true });
    }
    expect(await exited).toBe(0);
  });
});

const FIXTURE_WORKSPACE = fileURLToPath(new URL("../fixtures/sleep-workspace", import.meta.url));

/** `lucid serve` as the built binary, once it says where it listens. */
async function startServe(home: string, args: readonly string[]) {
  const child = spawn(process.execPath, [BIN, "serve", ...args], {
    env: { ...process.env, LUCID_HOME: home },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stderr = "";
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      const match = /listening on (http:\/\/\S+) /.exec(stderr);
      if (match) resolve(match[1] as string);
    });
    child.on("exit", (code) => reject(new Error(`lucid serve exited ${code}: ${stderr}`)));
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { url, child, exited };
}
