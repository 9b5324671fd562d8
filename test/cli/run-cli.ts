/**
 * Runs the real `lucid` binary as a subprocess, in a temporary home, with a clean environment (no
 * inherited LUCID_*, NO_COLOR or FORCE_COLOR), stdin from a string and stdout/stderr as pipes.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll } from "vitest";

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
}

const INHERITED = Object.fromEntries(
  Object.entries(process.env).filter(
    ([key]) => !key.startsWith("LUCID_") && key !== "NO_COLOR" && key !== "FORCE_COLOR",
  ),
) as Record<string, string>;

export function runCli(args: readonly string[], options: RunOptions = {}): Promise<CliResult> {
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

/** Runs with `--json`, checks stdout is exactly one JSON document, and returns it. */
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
