/**
 * The install path that works before Lucid is on a registry: pack the checkout, install the
 * tarball globally (into a temporary prefix, from outside the checkout, as a user would), then use
 * the installed `lucid` — CLI, MCP over stdio — and typecheck a program against the installed
 * package's types with `skipLibCheck: false`, so a type that needs a development dependency
 * (`@types/better-sqlite3`: TS7016 for consumers) fails here.
 *
 * npm reads its registry cache first (`--prefer-offline`): `npm ci` filled it with the same versions.
 */
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv } from "../mcp/mcp-client.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const VERSION = (await import("../../package.json", { with: { type: "json" } })).default.version;
const work = mkdtempSync(join(tmpdir(), "lucid-install-"));
const prefix = join(work, "global");
const lucid = join(prefix, "bin", "lucid");
const installed = join(prefix, "lib", "node_modules", "lucid-memory");
const home = join(work, "home");

/**
 * An environment like a user's shell: no LUCID_* variables and no npm settings of this checkout, but
 * the user's own npm configuration and cache (on these machines `~/.npmrc` says where Node's headers
 * are, which better-sqlite3 compiles against). Lucid itself gets a home of its own (`--home`).
 */
function userEnv(): Record<string, string> {
  const env = Object.fromEntries(Object.entries(cleanEnv()).filter(([key]) => !key.startsWith("npm_")));
  return env;
}

beforeAll(async () => {
  mkdirSync(home, { recursive: true });
  const packs = join(work, "packs");
  mkdirSync(packs);
  await run("npm", ["pack", "--pack-destination", packs], { cwd: ROOT, env: userEnv() });
  const [tarball] = readdirSync(packs);
  expect(tarball).toBe(`lucid-memory-${VERSION}.tgz`);
  await run(
    "npm",
    [
      "install",
      "-g",
      "--prefix",
      prefix,
      "--prefer-offline",
      "--no-audit",
      "--no-fund",
      join(packs, tarball as string),
    ],
    { cwd: work, env: userEnv(), maxBuffer: 16 * 1024 * 1024 },
  );
}, 900_000);

afterAll(() => {
  rmSync(work, { recursive: true, force: true });
});

describe("installed from a packed checkout", () => {
  it("ships the licence, and never the build's bookkeeping", () => {
    const files = readdirSync(installed);
    expect(files).toEqual(expect.arrayContaining(["LICENSE", "README.md", "bin", "dist", "package.json"]));
    expect(readdirSync(join(installed, "dist"))).not.toContain(".tsbuildinfo");
  });

  it("puts a working lucid on the PATH", async () => {
    expect((await run(lucid, ["--version"], { env: userEnv() })).stdout.trim()).toBe(VERSION);
    await run(lucid, ["add", "Alice keeps her bike in the garage", "--home", home, "--user", "alice"], {
      env: userEnv(),
    });
    const found = await run(
      lucid,
      ["search", "where is the bike?", "--home", home, "--user", "alice", "--json"],
      {
        env: userEnv(),
      },
    );
    expect(JSON.parse(found.stdout).results[0].memory).toBe("Alice keeps her bike in the garage");
  }, 300_000);

  it("serves MCP over stdio as the README's client configuration starts it", async () => {
    const transport = new StdioClientTransport({
      command: lucid,
      args: ["mcp", "--home", home, "--user", "alice"],
      env: userEnv(),
    });
    const client = new Client({ name: "install-test", version: "0" });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["memory_add", "memory_search"]));
    } finally {
      await client.close();
    }
  }, 300_000);

  it("typechecks a program against its types without development dependencies", async () => {
    const project = join(work, "consumer");
    mkdirSync(join(project, "node_modules"), { recursive: true });
    symlinkSync(installed, join(project, "node_modules", "lucid-memory"));
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({
        compilerOptions: {
          strict: true,
          noEmit: true,
          skipLibCheck: false,
          module: "nodenext",
          moduleResolution: "nodenext",
          target: "es2022",
          types: ["node"],
          typeRoots: [join(ROOT, "node_modules", "@types")],
        },
        files: ["main.ts"],
      }),
    );
    writeFileSync(join(project, "package.json"), JSON.stringify({ type: "module" }));
    writeFileSync(
      join(project, "main.ts"),
      [
        'import { Memory, openMemory, type MemoryConfig } from "lucid-memory";',
        'import { createMcpServer } from "lucid-memory/mcp";',
        'const config: MemoryConfig = { path: ":memory:" };',
        "const memory: Memory = await openMemory(config);",
        'const { results } = await memory.search("tea", { userId: "alice" });',
        "console.log(results.length, typeof createMcpServer);",
        "",
      ].join("\n"),
    );
    const tsc = join(ROOT, "node_modules", "typescript", "bin", "tsc");
    const result = await run(process.execPath, [tsc, "-p", project], { cwd: project }).catch(
      (error: { stdout?: string }) => ({ stdout: error.stdout ?? String(error) }),
    );
    expect(result.stdout).toBe("");
  }, 300_000);
});
