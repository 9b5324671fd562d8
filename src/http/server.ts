/**
 * `lucid serve`'s server: the REST app on Node's HTTP server (`@hono/node-server`). It reads
 * `keys.json` before it listens (a broken file stops it there), and refuses to listen on an address
 * other than loopback while no API key exists, since anyone who could reach it would read and
 * change every memory.
 *
 * @module
 */

import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import type { ScopeOptions } from "../core/scope.js";
import { DEFAULT_MAX_BODY_BYTES } from "../edge/body.js";
import type { EventRegistry } from "../edge/events.js";
import { isLoopbackHost } from "../edge/guard.js";
import { createLazyMask } from "../edge/lazy-mask.js";
import { LucidError } from "../errors.js";
import type { Memory } from "../sdk/memory.js";
import type { Workspace } from "../sdk/workspace.js";
import { createRestApp } from "./app.js";
import { DEFAULT_FAILURE_LIMIT } from "./auth.js";
import { keysFileOf, watchKeys } from "./key-store.js";
import { createPlanStore } from "./plan-store.js";
import { DEFAULT_RATE_LIMIT, type RateLimit } from "./rate-limit.js";
import { defaultUiDir, readUiAssets } from "./ui-assets.js";

export const DEFAULT_REST_PORT = 8765;

/** How long `close()` lets requests in flight finish before it cuts their connections. */
const CLOSE_GRACE_MS = 5_000;

export interface RestServerOptions {
  readonly memory: Memory;
  readonly events: EventRegistry;
  /** The Lucid home: its `keys.json` holds the API keys. */
  readonly home: string;
  /** Default 127.0.0.1. Any other address needs at least one API key. */
  readonly host?: string;
  /** Default 8765; 0 picks a free port. */
  readonly port?: number;
  /** The scope of a request that names none. */
  readonly defaults?: ScopeOptions;
  /** Default 4 MiB (`edge/body.ts`). */
  readonly maxBodyBytes?: number;
  /** Per key; default 50 a second with bursts of 100; null switches it off. */
  readonly rateLimit?: RateLimit | null;
  /** Failed authentications (401) per client address; default 10, then one every 5 s; null: none. */
  readonly failureLimit?: RateLimit | null;
  /** The Markdown workspace the sleep routes act on; without it they answer WORKSPACE_NOT_FOUND. */
  readonly workspace?: Workspace;
  /** The built web UI (default `dist/ui` beside the code); a folder without it serves a "not built" page. */
  readonly uiDir?: string;
  /** Where a problem found while serving is reported (a `keys.json` that broke); default stderr. */
  readonly log?: (line: string) => void;
}

export interface RunningRestServer {
  /** `http://127.0.0.1:8765`: MemoryClient's `host`. */
  readonly url: string;
  readonly host: string;
  readonly port: number;
  /** How many API keys there were when it started. */
  readonly keyCount: number;
  close(): Promise<void>;
}

/**
 * @example
 * const server = await startRestServer({ memory, events: new EventRegistry(), home, port: 0 });
 * const client = new MemoryClient({ apiKey, host: server.url });
 */
export async function startRestServer(options: RestServerOptions): Promise<RunningRestServer> {
  const host = options.host ?? "127.0.0.1";
  const keysFile = keysFileOf(options.home);
  const keys = watchKeys(keysFile);
  // Read before listening: a broken keys.json stops the server here, with the file and the fix.
  const keyCount = (await keys()).length;
  if (!isLoopbackHost(host) && keyCount === 0) {
    // An argument, not the config: keys live in keys.json, made by `lucid keys create`.
    throw new LucidError(
      "INVALID_ARGUMENT",
      `Refusing to serve the REST API on ${host} without API keys: anyone who can reach it could read and change every memory. ` +
        "Create a key with `lucid keys create --user <id>` first, or bind to 127.0.0.1.",
      { details: { host, keysFile } },
    );
  }
  const app = createRestApp(
    {
      memory: options.memory,
      events: options.events,
      defaults: options.defaults ?? {},
      maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
      orgId: "lucid",
      projectId: "local",
      projectSettings: new Map(),
      plans: createPlanStore(),
      shown: createLazyMask(() => options.memory.ready()),
      ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
    },
    {
      host,
      keys,
      requireKeys: keyCount > 0 || !isLoopbackHost(host),
      rateLimit: options.rateLimit === null ? undefined : (options.rateLimit ?? DEFAULT_RATE_LIMIT),
      failureLimit:
        options.failureLimit === null ? undefined : (options.failureLimit ?? DEFAULT_FAILURE_LIMIT),
      log: options.log,
    },
    readUiAssets(options.uiDir ?? defaultUiDir()),
  );
  const server = await new Promise<ReturnType<typeof serve>>((resolve, reject) => {
    const listening = serve(
      { fetch: app.fetch, hostname: host, port: options.port ?? DEFAULT_REST_PORT },
      () => {
        listening.off("error", reject);
        resolve(listening);
      },
    );
    listening.once("error", reject);
  });
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `http://${urlHost}:${port}`,
    host,
    port,
    keyCount,
    async close() {
      // Requests in flight finish; a connection still open after the grace is cut.
      await new Promise<void>((resolve) => {
        const cut = setTimeout(() => {
          if ("closeAllConnections" in server) server.closeAllConnections();
        }, CLOSE_GRACE_MS);
        cut.unref();
        server.close(() => {
          clearTimeout(cut);
          resolve();
        });
        if ("closeIdleConnections" in server) server.closeIdleConnections();
      });
    },
  };
}
