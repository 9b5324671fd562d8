/**
 * `lucid serve`'s server in this process, on 127.0.0.1 port 0, over a temporary home and store,
 * with API keys created as `lucid keys create` creates them.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Scope } from "../../src/core/scope.js";
import { EventRegistry } from "../../src/edge/events.js";
import { createKey, keysFileOf } from "../../src/http/key-store.js";
import { type RestServerOptions, type RunningRestServer, startRestServer } from "../../src/http/server.js";
import { type Memory, type MemoryOptions, openMemory } from "../../src/index.js";
import { wordEmbedder } from "../helpers/word-embedder.js";

export interface TestServer {
  readonly server: RunningRestServer;
  readonly url: string;
  readonly memory: Memory;
  readonly home: string;
  /** A new key bound to `scope`. */
  key(scope: Scope): Promise<string>;
  /** `fetch` of a path, with `Authorization: Token <key>` when a key is given. */
  call(
    path: string,
    init?: { method?: string; key?: string; body?: unknown; headers?: Record<string, string> },
  ): Promise<{ status: number; body: unknown; headers: Headers }>;
  close(): Promise<void>;
}

export async function startTestServer(
  options: {
    keys?: readonly Scope[];
    /** A Markdown workspace directory for the sleep routes (its promotions go to `agent_id=main`). */
    workspace?: string;
    /** The store's policy (`openMemory`'s), e.g. one that lets credentials be stored. */
    policy?: MemoryOptions["policy"];
  } & Partial<Omit<RestServerOptions, "memory" | "events" | "home" | "workspace">> = {},
): Promise<TestServer & { keys: string[] }> {
  const home = mkdtempSync(join(tmpdir(), "lucid-http-"));
  const keys: string[] = [];
  for (const scope of options.keys ?? []) keys.push((await createKey(keysFileOf(home), scope)).key);
  const memory = await openMemory({
    path: join(home, "lucid.db"),
    embedder: wordEmbedder(),
    ...(options.policy === undefined ? {} : { policy: options.policy }),
  });
  const { workspace, keys: _keys, policy: _policy, ...rest } = options;
  const server = await startRestServer({
    memory,
    events: new EventRegistry(),
    home,
    port: 0,
    rateLimit: null,
    ...rest,
    ...(workspace === undefined ? {} : { workspace: memory.workspace(workspace) }),
  });
  return {
    server,
    url: server.url,
    memory,
    home,
    keys,
    key: async (scope) => (await createKey(keysFileOf(home), scope)).key,
    async call(path, init = {}) {
      const response = await fetch(`${server.url}${path}`, {
        method: init.method ?? "GET",
        headers: {
          ...(init.key === undefined ? {} : { Authorization: `Token ${init.key}` }),
          ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
          ...init.headers,
        },
        ...(init.body === undefined
          ? {}
          : { body: typeof init.body === "string" ? init.body : JSON.stringify(init.body) }),
      });
      const text = await response.text();
      let body: unknown = text;
      try {
        body = JSON.parse(text);
      } catch {
        // not JSON: kept as text
      }
      return { status: response.status, body, headers: response.headers };
    },
    async close() {
      await server.close();
      await memory.close();
      rmSync(home, { recursive: true, force: true });
    },
  };
}
