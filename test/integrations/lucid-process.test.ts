/**
 * The plugins' client for a `lucid mcp` child, against a small scripted server (a real child
 * process speaking newline-delimited JSON-RPC): what happens to a host when Lucid is missing,
 * dies, hangs or was closed. Nothing may throw outside a call's own promise — inside OpenClaw or
 * OpenCode an uncaught error ends the user's agent.
 */

import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { LucidToolError, startLucid } from "../../integrations/shared/lucid-process.js";

// The scripted server: answers initialize, and tools/call by the tool's name — `echo` returns its
// arguments, `die` exits at once, `hang` never answers, `ask` sends a request of its own (with an
// id) before answering. Each start appends a line to $STARTS.
const SERVER = `
const fs = require("node:fs");
fs.appendFileSync(process.env.STARTS, "start\\n");
let buffer = "";
const send = (message) => process.stdout.write(JSON.stringify({ jsonrpc: "2.0", ...message }) + "\\n");
process.stdin.on("data", (chunk) => {
  buffer += chunk;
  let newline;
  while ((newline = buffer.indexOf("\\n")) !== -1) {
    const message = JSON.parse(buffer.slice(0, newline));
    buffer = buffer.slice(newline + 1);
    if (message.method === "initialize") send({ id: message.id, result: { protocolVersion: "2025-06-18" } });
    if (message.method !== "tools/call") continue;
    const { name, arguments: args } = message.params;
    if (name === "die") process.exit(3);
    if (name === "hang") continue;
    if (name === "ask") send({ id: message.id, method: "roots/list", params: {} });
    if (name === "fail") {
      send({ id: message.id, result: { isError: true, content: [{ type: "text", text: "SCOPE_NOT_ALLOWED: no" }],
        structuredContent: { error: { code: "SCOPE_NOT_ALLOWED", message: "no" } } } });
      continue;
    }
    send({ id: message.id, result: { content: [{ type: "text", text: "ok" }], structuredContent: { args } } });
  }
});
process.stdin.on("end", () => process.exit(0));
`;

let dir: string;
let starts: string;
let uncaught: unknown[];
const onUncaught = (error: unknown) => uncaught.push(error);

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "lucid-process-"));
  writeFileSync(join(dir, "server.cjs"), SERVER);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));
beforeEach(() => {
  starts = join(dir, `starts-${Date.now()}-${Math.random()}`);
  writeFileSync(starts, "");
  uncaught = [];
  process.on("uncaughtException", onUncaught);
  process.on("unhandledRejection", onUncaught);
});
afterEach(() => {
  process.off("uncaughtException", onUncaught);
  process.off("unhandledRejection", onUncaught);
  expect(uncaught).toEqual([]);
});

const lucid = (timeoutMs?: number) =>
  startLucid({
    command: [process.execPath, join(dir, "server.cjs")],
    env: { ...process.env, STARTS: starts },
    ...(timeoutMs === undefined ? {} : { timeoutMs }),
  });
const startCount = () => readFileSync(starts, "utf8").split("\n").filter(Boolean).length;
const codeOf = (error: unknown) => (error instanceof LucidToolError ? error.code : String(error));

describe("the Lucid child a plugin talks to", () => {
  it("answers calls in order over one process, and reports a tool's error with its code", async () => {
    const child = lucid();
    const answers = await Promise.all([child.call("echo", { n: 1 }), child.call("echo", { n: 2 })]);
    expect(answers.map((answer) => answer.data)).toEqual([{ args: { n: 1 } }, { args: { n: 2 } }]);
    await expect(child.call("fail", {})).rejects.toMatchObject({ code: "SCOPE_NOT_ALLOWED", message: "no" });
    expect(startCount()).toBe(1);
    child.close();
  });

  it("fails the calls of a child that dies, and starts a new one for a later call", async () => {
    const child = lucid();
    await child.call("echo", {});
    const pending = child.call("hang", {});
    await expect(child.call("die", {})).rejects.toMatchObject({ code: "LUCID_EXITED" });
    await expect(pending).rejects.toMatchObject({ code: "LUCID_EXITED" });
    // Right after a death calls fail fast with the reason; after the backoff Lucid starts again.
    await expect(child.call("echo", {})).rejects.toMatchObject({ code: "LUCID_EXITED" });
    await new Promise((done) => setTimeout(done, 5_500));
    await expect(child.call("echo", { again: true })).resolves.toMatchObject({
      data: { args: { again: true } },
    });
    expect(startCount()).toBe(2);
    child.close();
  }, 30_000);

  it("times a call out alone, leaving the process usable", async () => {
    const child = lucid();
    await expect(child.call("hang", {}, { timeoutMs: 300 })).rejects.toMatchObject({ code: "TIMEOUT" });
    await expect(child.call("echo", { after: 1 })).resolves.toMatchObject({ data: { args: { after: 1 } } });
    child.close();
  });

  it("refuses calls once closed, without touching the closed pipe", async () => {
    const child = lucid();
    await child.call("echo", {});
    child.close();
    await expect(child.call("echo", {})).rejects.toMatchObject({ code: "LUCID_CLOSED" });
  });

  it("does not take a request of the server's for the answer to a call", async () => {
    const child = lucid();
    await expect(child.call("ask", { x: 1 })).resolves.toMatchObject({ data: { args: { x: 1 } } });
    child.close();
  });

  it("says how to install Lucid when the command does not exist", async () => {
    const child = startLucid({ command: [join(dir, "no-such-lucid")] });
    const error = await child.call("echo", {}).catch((caught: unknown) => caught);
    expect(codeOf(error)).toBe("LUCID_NOT_STARTED");
    expect((error as Error).message).toMatch(/npm install -g lucid-memory/);
    child.close();
  });
});
