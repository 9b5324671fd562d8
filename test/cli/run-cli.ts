/**
 * Running `lucid` in tests, two ways:
 *
 * - `runCli`: in this process, through `runMain(argv, io)` with the streams, environment and working
 *   directory injected — every behaviour of a command, without a process start or a model load per
 *   call (the local model loads once per test file);
 * - `spawnCli`: the real `bin/lucid.js` in a child process, for what only a process shows (exit
 *   codes, EPIPE, signals, kill -9, a terminal).
 *
 * Both take a temporary home, an environment (nothing inherited: no LUCID_*, NO_COLOR or
 * FORCE_COLOR leaks in), stdin as a string, and return the exit code and what was written.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";
import type { CliIo, OutputStream } from "../../src/cli/io.js";
import { runMain } from "../../src/cli/main.js";

export const BIN = join(fileURLToPath(new URL("../..", import.meta.url)), "bin", "lucid.js");

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  home?: string;
  env?: Record<string, string>;
  input?: string;
  cwd?: string;
  /** In-process only: make stdin and stdout a terminal of this width (the interactive dream flow). */
  terminal?: { columns: number };
}

/** A stream that keeps what is written, and can claim to be a terminal. */
function capture(terminal: { columns: number } | undefined): OutputStream & { text: () => string } {
  const chunks: string[] = [];
  return {
    write(chunk: string) {
      chunks.push(chunk);
      return true;
    },
    once() {
      return undefined;
    },
    ...(terminal === undefined ? {} : { isTTY: true, columns: terminal.columns }),
    text: () => chunks.join(""),
  };
}

/** `lucid …args` in this process. */
export async function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  const stdout = capture(options.terminal);
  const stderr = capture(undefined);
  const stdin = Readable.from(options.input === undefined ? [] : [options.input]) as CliIo["stdin"] & {
    isTTY?: boolean;
  };
  if (options.terminal !== undefined) stdin.isTTY = true;
  const io: CliIo = {
    stdout,
    stderr,
    stdin,
    env: { ...(options.home ? { LUCID_HOME: options.home } : {}), ...options.env },
    cwd: options.cwd ?? process.cwd(),
  };
  const code = await runMain(args, io);
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

const INHERITED = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !key.startsWith("LUCID_") && key !== "NO_COLOR" && key !== "FORCE_COLOR",
  ),
) as Record<string, string>;

/** `node bin/lucid.js …args` in a child process (the built CLI). */
export function spawnCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
  const env = { ...INHERITED, ...(options.home ? { LUCID_HOME: options.home } : {}), ...options.env };
  const child = spawn(process.execPath, [BIN, ...args], { env, cwd: options.cwd, stdio: "pipe" });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
  });
  child.stdin.end(options.input ?? "");
  return new Promise((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
  });
}

/** Runs (in process) with `--json`, checks stdout is exactly one JSON document, and returns it. */
export async function runJson(
  args: readonly string[],
  options: RunOptions = {},
): Promise<CliResult & { json: Record<string, unknown> & { ok: boolean } }> {
  const result = await runCli([...args, "--json"], options);
  let json: Record<string, unknown> & { ok: boolean };
  try {
    json = JSON.parse(result.stdout);
  } catch {
    throw new Error(`stdout is not one JSON document:\n${result.stdout}\nstderr:\n${result.stderr}`);
  }
  return { ...result, json };
}

/** A fresh temporary directory per call, all removed after the file's tests. */
export function tempHomes(): () => string {
  const root = mkdtempSync(join(tmpdir(), "lucid-cli-"));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  let count = 0;
  return () => join(root, `home-${++count}`);
}

// biome-ignore lint/suspicious/noControlCharactersInRegex: matching ANSI escapes is the point.
export const ANSI = /\u001b\[/;
