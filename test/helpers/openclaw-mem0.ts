/**
 * Mem0's own OpenClaw memory plugin, `@mem0/openclaw-mem0` 1.0.16, for the test that runs it inside
 * the real OpenClaw against `lucid serve`. It is installed with the Mem0 clients, in `test/clients`
 * (`npm run hosts`), and copied from there into a test's own folder as a user's plugin directory
 * is: the package and, in its `node_modules`, the packages it needs at run time (OpenClaw loads a
 * local plugin as it finds it and never installs its dependencies).
 *
 * Also a recording proxy: a real HTTP server on loopback in front of `lucid serve`, so a test sees
 * every request the plugin made and the status Lucid answered it with.
 *
 * @module
 */

import { cpSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { dirname, join, relative, sep } from "node:path";
import { describe, it } from "vitest";
import { findHost, hostsRequired, type OpenclawHost } from "./hosts.js";
import { listenOnLoopback } from "./loopback-server.js";
import { CLIENTS_DIR } from "./mem0-clients.js";

export const OPENCLAW_MEM0_VERSION = "1.0.16";

const CLIENT_MODULES = join(CLIENTS_DIR, "node_modules");
/** Where `npm run hosts` installs the plugin. */
export const OPENCLAW_MEM0_DIR = join(CLIENT_MODULES, "@mem0", "openclaw-mem0");

const INSTALL_HINT = "run `npm run hosts` (it installs it into test/clients)";

function installedVersion(): string | undefined {
  try {
    const pkg = JSON.parse(readFileSync(join(OPENCLAW_MEM0_DIR, "package.json"), "utf8")) as {
      version?: unknown;
    };
    return typeof pkg.version === "string" ? pkg.version : undefined;
  } catch {
    return undefined;
  }
}

/**
 * A `describe` block that runs when both OpenClaw and the plugin (in the pinned version) are
 * installed; otherwise one skipped test says what is missing and how to install it. With
 * `LUCID_REQUIRE_HOSTS=1` a missing one fails the file instead.
 */
export function describeWithOpenclawMem0(title: string, body: (host: OpenclawHost) => void): void {
  const found = findHost("openclaw");
  let reason = found.reason;
  if (found.host !== undefined) {
    const version = installedVersion();
    if (version !== OPENCLAW_MEM0_VERSION) {
      reason = `@mem0/openclaw-mem0 ${OPENCLAW_MEM0_VERSION} is not installed in test/clients (found ${version ?? "none"}): ${INSTALL_HINT}`;
      if (hostsRequired()) throw new Error(`LUCID_REQUIRE_HOSTS=1 but ${reason}`);
    } else {
      const host = found.host;
      describe(title, () => body(host));
      return;
    }
  }
  describe(title, () => {
    it(`skipped: ${reason}`, (context) => {
      context.skip(reason);
    });
  });
}

/**
 * Copies the plugin into `dest` (a real folder, no links), with the packages it needs at run time
 * (its `dependencies`, transitively, as Node resolves them in `test/clients`) in
 * `dest/node_modules`. Returns the names of the packages copied.
 */
export function installOpenclawMem0(dest: string): string[] {
  cpSync(OPENCLAW_MEM0_DIR, dest, { recursive: true, dereference: true });
  const needed = new Set<string>();
  const visit = (dir: string): void => {
    const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as {
      dependencies?: Record<string, string>;
      optionalDependencies?: Record<string, string>;
    };
    const names = Object.keys({ ...pkg.dependencies, ...pkg.optionalDependencies });
    for (const name of names) {
      const at = resolvePackage(dir, name);
      if (at === undefined) {
        if (pkg.dependencies?.[name] !== undefined) {
          throw new Error(`${name}, a dependency of ${dir}, is not installed: ${INSTALL_HINT}`);
        }
        continue;
      }
      if (needed.has(at)) continue;
      needed.add(at);
      visit(at);
    }
  };
  visit(OPENCLAW_MEM0_DIR);
  const copied: string[] = [];
  for (const dir of needed) {
    const path = relative(CLIENT_MODULES, dir);
    // A package nested in another's node_modules comes along with that one.
    if (path.split(sep).includes("node_modules")) continue;
    const target = join(dest, "node_modules", path);
    mkdirSync(dirname(target), { recursive: true });
    cpSync(dir, target, { recursive: true, dereference: true });
    copied.push(path.split(sep).join("/"));
  }
  return copied.sort();
}

/** Where Node would find `name` from a package in `dir`, within `test/clients`. */
function resolvePackage(dir: string, name: string): string | undefined {
  let at = dir;
  for (;;) {
    const candidate = join(at, "node_modules", name);
    if (existsSync(join(candidate, "package.json"))) return candidate;
    if (at === CLIENTS_DIR || !at.startsWith(CLIENTS_DIR)) return undefined;
    at = dirname(at);
  }
}

/** One request that passed through the proxy, and Lucid's answer. */
export interface ProxiedRequest {
  method: string;
  /** Path and query, e.g. `/v3/memories/search/`. */
  url: string;
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: the request's JSON body (or its text), read freely by tests
  body: any;
  /** The response body as text. */
  response: string;
}

export interface RecordingProxy {
  /** e.g. `http://127.0.0.1:54321`, without a trailing slash: give it to the client. */
  url: string;
  requests: ProxiedRequest[];
  close(): Promise<void>;
}

/** A loopback HTTP server forwarding every request to `target` as it came, recording each. */
export async function startRecordingProxy(target: string): Promise<RecordingProxy> {
  const upstream = new URL(target);
  const requests: ProxiedRequest[] = [];
  const server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks);
    const headers = { ...req.headers, host: upstream.host };
    const forward = httpRequest(
      {
        hostname: upstream.hostname,
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers,
      },
      async (answer) => {
        const parts: Buffer[] = [];
        for await (const chunk of answer) parts.push(chunk as Buffer);
        const response = Buffer.concat(parts);
        const text = raw.toString("utf8");
        let body: unknown = text === "" ? undefined : text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON: kept as text
        }
        requests.push({
          method: req.method ?? "",
          url: req.url ?? "",
          status: answer.statusCode ?? 0,
          body,
          response: response.toString("utf8"),
        });
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        res.end(response);
      },
    );
    forward.on("error", (error) => {
      requests.push({
        method: req.method ?? "",
        url: req.url ?? "",
        status: 502,
        body: undefined,
        response: "",
      });
      res.writeHead(502, { "content-type": "application/json" });
      res.end(JSON.stringify({ detail: `proxy: ${String(error)}` }));
    });
    forward.end(raw);
  });
  const { port, close } = await listenOnLoopback(server);
  return { url: `http://127.0.0.1:${port}`, requests, close };
}
