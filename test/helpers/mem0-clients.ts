/**
 * The real `mem0ai` MemoryClient, in the versions the REST API tests drive: 3.3.1 (the current one)
 * and 3.0.7 (which `@mem0/openclaw-mem0` pins). They are installed apart from Lucid's own
 * dependencies, in `test/clients` (their peer dependencies would disturb Lucid's lock):
 *
 *   npm install --prefix test/clients --legacy-peer-deps --ignore-scripts --no-audit --no-fund
 *
 * Without them the tests skip, saying so; with `LUCID_REQUIRE_HOSTS=1` (CI) a missing client is an
 * error instead. `MEM0_TELEMETRY=false` is set before a client is imported (it reads it then), so no
 * test sends telemetry.
 *
 * @module
 */

import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { describe, it } from "vitest";
import { hostsRequired } from "./hosts.js";

export const CLIENTS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../clients");

export const MEM0_CLIENT_VERSIONS = ["3.3.1", "3.0.7"] as const;
export type Mem0ClientVersion = (typeof MEM0_CLIENT_VERSIONS)[number];

const INSTALL = "npm install --prefix test/clients --legacy-peer-deps --ignore-scripts --no-audit --no-fund";

/** The parts of MemoryClient the tests call (its own types live outside this project). */
export interface MemoryClientLike {
  ping(): Promise<unknown>;
  add(messages: unknown, options?: Record<string, unknown>): Promise<unknown>;
  search(query: string, options?: Record<string, unknown>): Promise<{ results: Record<string, unknown>[] }>;
  getAll(options?: Record<string, unknown>): Promise<Record<string, unknown>>;
  get(id: string): Promise<Record<string, unknown>>;
  update(id: string, change: Record<string, unknown>): Promise<unknown>;
  delete(id: string): Promise<{ message: string }>;
  deleteAll(options?: Record<string, unknown>): Promise<{ message: string }>;
  history(id: string): Promise<Record<string, unknown>[]>;
  users(options?: Record<string, unknown>): Promise<Record<string, unknown>>;
  deleteUsers(options?: Record<string, unknown>): Promise<{ message: string }>;
  deleteUser(options: Record<string, unknown>): Promise<{ message: string }>;
  batchUpdate(memories: { memoryId: string; text: string }[]): Promise<unknown>;
  batchDelete(ids: string[]): Promise<unknown>;
  getProject(options: { fields: string[] }): Promise<Record<string, unknown>>;
  updateProject(prompts: Record<string, unknown>): Promise<Record<string, unknown>>;
  feedback(data: { memoryId: string; feedback?: string | null; feedbackReason?: string | null }): Promise<{
    message: string;
  }>;
  getWebhooks(data?: { projectId?: string }): Promise<unknown>;
  createMemoryExport(data: {
    schema: Record<string, unknown>;
    filters: Record<string, unknown>;
  }): Promise<unknown>;
}

type ErrorClass = abstract new (...args: never[]) => Error;

export interface Mem0Client {
  readonly version: Mem0ClientVersion;
  readonly MemoryClient: new (options: { apiKey: string; host: string }) => MemoryClientLike;
  readonly errors: {
    readonly AuthenticationError: ErrorClass;
    readonly ValidationError: ErrorClass;
    readonly MemoryNotFoundError: ErrorClass;
    readonly RateLimitError: ErrorClass;
    readonly MemoryQuotaExceededError: ErrorClass;
  };
}

function entryOf(version: Mem0ClientVersion): string {
  return join(CLIENTS_DIR, "node_modules", `mem0ai-${version}`, "dist", "index.mjs");
}

/** Imports the client (telemetry off). */
export async function loadMem0Client(version: Mem0ClientVersion): Promise<Mem0Client> {
  process.env.MEM0_TELEMETRY = "false";
  const module = (await import(pathToFileURL(entryOf(version)).href)) as Record<string, unknown>;
  return {
    version,
    MemoryClient: module.MemoryClient as Mem0Client["MemoryClient"],
    errors: module as unknown as Mem0Client["errors"],
  };
}

/**
 * A `describe` block per installed client version; a missing one is a skipped test saying how to
 * install it (or, with `LUCID_REQUIRE_HOSTS=1`, a failure).
 */
export function describeWithMem0Clients(
  title: string,
  body: (load: () => Promise<Mem0Client>) => void,
): void {
  for (const version of MEM0_CLIENT_VERSIONS) {
    const name = `${title} (mem0ai ${version})`;
    if (existsSync(entryOf(version))) {
      describe(name, () => body(() => loadMem0Client(version)));
      continue;
    }
    const reason = `mem0ai ${version} is not installed in test/clients: run \`${INSTALL}\``;
    if (hostsRequired()) throw new Error(`LUCID_REQUIRE_HOSTS=1 but ${reason}`);
    describe(name, () => {
      it(`skipped: ${reason}`, (context) => {
        context.skip(reason);
      });
    });
  }
}
