/**
 * The one way both host plugins reach Lucid: a `lucid mcp --sessions explicit` process they start
 * and talk to over stdio (newline-delimited JSON-RPC, MCP's stdio transport).
 *
 * Why a process and not the library in the host's process: Lucid's store is a native module
 * (better-sqlite3) built for one Node ABI, and the hosts run others — OpenClaw needs Node 24
 * (ABI 137, where a Node 20 build refuses to load), OpenCode runs plugins in Bun, and OpenClaw
 * installs plugin dependencies with `--ignore-scripts`, so no native build would happen at
 * install. A Lucid installed the usual way (`npm install -g lucid-memory`) runs under its own
 * Node; the plugin stays plain JavaScript with no dependencies, bundled into one file.
 *
 * The process is started on first use, shared by every caller in the host process, and never
 * keeps the host alive: its pipes are unreferenced while no request is in flight, and closing its
 * stdin ends it once a background dream it started has committed. A Lucid that dies is started
 * again by a later call (after a short backoff), so one crash does not end memory for the host.
 *
 * @module
 */

import { type ChildProcess, execFile, spawn } from "node:child_process";

export interface LucidProcessOptions {
  /** The command that runs Lucid, as argv: default `["lucid"]` (found on PATH). */
  readonly command?: readonly string[];
  /** Extra arguments for `lucid mcp` (`--user alice`, `--workspace DIR`, `--home DIR`…). */
  readonly args?: readonly string[];
  /** Environment for the process (default: the host's). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** A request's time limit. Default 120 s (the first call loads the sentence model). */
  readonly timeoutMs?: number;
  /** Where the process's stderr lines go. */
  readonly log?: (line: string) => void;
}

/** A tool's answer: the text the model reads and the data. */
export interface ToolAnswer<T = Record<string, unknown>> {
  readonly text: string;
  readonly data: T;
}

/** A Lucid tool failed: the code and message Lucid gave (`SCOPE_NOT_ALLOWED: …`). */
export class LucidToolError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = "LucidToolError";
  }
}

export interface CallOptions {
  /** This call's time limit (default: the process's `timeoutMs`): recall before a turn wants a short one. */
  readonly timeoutMs?: number;
}

export interface LucidProcess {
  call<T = Record<string, unknown>>(
    tool: string,
    args: Record<string, unknown>,
    options?: CallOptions,
  ): Promise<ToolAnswer<T>>;
  /** Closes stdin: Lucid finishes what it runs (a dream commits) and exits. Later calls are refused. */
  close(): void;
}

const PROTOCOL_VERSION = "2025-06-18";
/** After Lucid died or could not start, calls fail fast for this long before a new start is tried. */
const RESTART_BACKOFF_MS = 5_000;

interface Pending {
  resolve(value: unknown): void;
  reject(error: Error): void;
  timer: ReturnType<typeof setTimeout>;
}

/** One Lucid child and its handshake; replaced by a new one when it dies. */
interface Generation {
  readonly child: ChildProcess;
  readonly ready: Promise<unknown>;
}

/**
 * Never throws into the host: every failure (Lucid missing, crashed, closed, slow) is a rejected
 * call with a {@link LucidToolError}, and a Lucid that died is started again on a later call.
 *
 * @example
 * const lucid = startLucid({ command: ["lucid"], args: ["--user", "alice"] });
 * const { text } = await lucid.call("memory_recall", { query: "plan the trip" }, { timeoutMs: 10_000 });
 */
export function startLucid(options: LucidProcessOptions = {}): LucidProcess {
  const [command = "lucid", ...commandArgs] = options.command ?? ["lucid"];
  const timeoutMs = options.timeoutMs ?? 120_000;
  const log = options.log ?? (() => {});
  const pending = new Map<number, Pending>();
  let generation: Generation | undefined;
  let nextId = 1;
  let closed = false;
  // Why the last child died, and until when calls fail with it instead of starting another.
  let lastFailure: LucidToolError | undefined;
  let retryAt = 0;

  // Referenced only while a request waits: an idle Lucid never holds the host's event loop open.
  const hold = () => {
    const child = generation?.child;
    if (child === undefined) return;
    const busy = pending.size > 0;
    for (const stream of [child.stdout, child.stderr, child.stdin]) {
      const handle = stream as unknown as { ref?: () => void; unref?: () => void } | null;
      if (busy) handle?.ref?.();
      else handle?.unref?.();
    }
    if (busy) child.ref();
    else child.unref();
  };

  /** The child is gone (or unusable): its requests fail, and the next call starts another. */
  const lose = (child: ChildProcess, error: LucidToolError) => {
    if (generation?.child !== child) return;
    generation = undefined;
    lastFailure = error;
    retryAt = Date.now() + RESTART_BACKOFF_MS;
    for (const [id, each] of pending) {
      clearTimeout(each.timer);
      each.reject(error);
      pending.delete(id);
    }
    if (child.exitCode === null && child.signalCode === null) child.kill();
  };

  const send = (child: ChildProcess, message: Record<string, unknown>): boolean => {
    const stdin = child.stdin;
    if (stdin === null || stdin.destroyed || stdin.writableEnded) return false;
    stdin.write(`${JSON.stringify({ jsonrpc: "2.0", ...message })}\n`);
    return true;
  };

  const request = (
    child: ChildProcess,
    method: string,
    params: Record<string, unknown>,
    limitMs: number,
  ): Promise<unknown> =>
    new Promise((resolve, reject) => {
      const id = nextId++;
      const timer = setTimeout(() => {
        pending.delete(id);
        hold();
        // Lucid stops working on it; its answer, if it comes, is ignored.
        send(child, { method: "notifications/cancelled", params: { requestId: id, reason: "timeout" } });
        reject(new LucidToolError("TIMEOUT", `Lucid did not answer ${method} within ${limitMs} ms.`));
      }, limitMs);
      (timer as { unref?: () => void }).unref?.();
      pending.set(id, { resolve, reject, timer });
      hold();
      if (!send(child, { id, method, params })) {
        pending.delete(id);
        clearTimeout(timer);
        hold();
        reject(new LucidToolError("LUCID_EXITED", "Lucid's input is closed."));
      }
    });

  const start = (): Generation => {
    const child = spawn(command, [...commandArgs, "mcp", "--sessions", "explicit", ...(options.args ?? [])], {
      stdio: ["pipe", "pipe", "pipe"],
      env: { ...(options.env ?? process.env) } as NodeJS.ProcessEnv,
    });
    child.on("error", (error) =>
      lose(
        child,
        new LucidToolError(
          "LUCID_NOT_STARTED",
          `Could not start Lucid (${[command, ...commandArgs].join(" ")}): ${error.message}. Install it with \`npm install -g lucid-memory\`, or set the plugin's \`command\`.`,
        ),
      ),
    );
    child.on("exit", (code, signal) =>
      lose(child, new LucidToolError("LUCID_EXITED", `Lucid exited (${signal ?? `code ${code}`}).`)),
    );
    // A write to a child that just died is an EPIPE on stdin: a lost child, never an uncaught error.
    child.stdin?.on("error", (error) =>
      lose(child, new LucidToolError("LUCID_EXITED", `Lucid's input failed: ${error.message}.`)),
    );
    let buffered = "";
    child.stdout?.setEncoding("utf8");
    child.stdout?.on("data", (chunk: string) => {
      buffered += chunk;
      for (let newline = buffered.indexOf("\n"); newline !== -1; newline = buffered.indexOf("\n")) {
        const line = buffered.slice(0, newline).trim();
        buffered = buffered.slice(newline + 1);
        if (line !== "") receive(line);
      }
    });
    let errors = "";
    child.stderr?.setEncoding("utf8");
    child.stderr?.on("data", (chunk: string) => {
      errors += chunk;
      for (let newline = errors.indexOf("\n"); newline !== -1; newline = errors.indexOf("\n")) {
        log(errors.slice(0, newline));
        errors = errors.slice(newline + 1);
      }
    });
    const ready = request(
      child,
      "initialize",
      {
        protocolVersion: PROTOCOL_VERSION,
        capabilities: {},
        clientInfo: { name: "lucid-plugin", version: "0.1.0" },
      },
      timeoutMs,
    ).then(
      (result) => {
        send(child, { method: "notifications/initialized" });
        return result;
      },
      (error: unknown) => {
        // A child that cannot finish the handshake is no use: the next call starts another.
        lose(child, error instanceof LucidToolError ? error : new LucidToolError("PROTOCOL", String(error)));
        throw error;
      },
    );
    ready.catch(() => {}); // the caller that started it sees the failure; nobody else must
    hold();
    return { child, ready };
  };

  const receive = (line: string) => {
    let message: { id?: unknown; method?: unknown; result?: unknown; error?: { message?: string } };
    try {
      message = JSON.parse(line);
    } catch {
      log(`lucid: unreadable line from the server: ${line.slice(0, 200)}`);
      return;
    }
    // Only replies settle a call: a notification or a request of the server's (it has a method) does not.
    if (typeof message.id !== "number" || message.method !== undefined) return;
    const waiting = pending.get(message.id);
    if (waiting === undefined) return;
    pending.delete(message.id);
    clearTimeout(waiting.timer);
    hold();
    if (message.error !== undefined) {
      waiting.reject(new LucidToolError("PROTOCOL", message.error.message ?? "Lucid refused the request."));
    } else waiting.resolve(message.result);
  };

  const current = (): Generation => {
    if (closed) throw new LucidToolError("LUCID_CLOSED", "Lucid was closed; the call was not made.");
    if (generation !== undefined) return generation;
    if (lastFailure !== undefined && Date.now() < retryAt) throw lastFailure;
    generation = start();
    return generation;
  };

  return {
    async call<T>(tool: string, args: Record<string, unknown>, callOptions: CallOptions = {}) {
      const { child, ready } = current();
      await ready;
      const result = (await request(
        child,
        "tools/call",
        { name: tool, arguments: args },
        callOptions.timeoutMs ?? timeoutMs,
      )) as {
        content?: { type: string; text?: string }[];
        structuredContent?: Record<string, unknown>;
        isError?: boolean;
      } | null;
      const text = (result?.content ?? []).map((block) => block.text ?? "").join("\n");
      if (result?.isError === true) {
        const error = result.structuredContent?.error as { code?: string; message?: string } | undefined;
        throw new LucidToolError(error?.code ?? "TOOL_ERROR", error?.message ?? text);
      }
      return { text, data: (result?.structuredContent ?? {}) as T };
    },
    close() {
      closed = true;
      generation?.child.stdin?.end();
    },
  };
}

/** What a one-off `lucid <command>` printed. */
export interface LucidCommandResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs one Lucid CLI command to its end (`lucid status --user alice`), for what the MCP tools do
 * not offer. Never rejects for a non-zero exit: the caller shows Lucid's own message.
 */
export function runLucidCommand(
  options: Pick<LucidProcessOptions, "command" | "env" | "timeoutMs">,
  args: readonly string[],
): Promise<LucidCommandResult> {
  const [command = "lucid", ...commandArgs] = options.command ?? ["lucid"];
  return new Promise((resolve, reject) => {
    execFile(
      command,
      [...commandArgs, ...args],
      {
        env: { ...(options.env ?? process.env) } as NodeJS.ProcessEnv,
        timeout: options.timeoutMs ?? 120_000,
        maxBuffer: 16 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = (error as { code?: unknown } | null)?.code;
        if (error !== null && typeof code !== "number") {
          reject(
            new LucidToolError(
              "LUCID_NOT_STARTED",
              `Could not run Lucid (${[command, ...commandArgs].join(" ")}): ${error.message}. Install it with \`npm install -g lucid-memory\`, or set the plugin's \`command\`.`,
            ),
          );
          return;
        }
        resolve({ code: typeof code === "number" ? code : 0, stdout, stderr });
      },
    );
  });
}
