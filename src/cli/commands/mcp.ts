import { once } from "node:events";
import { readDeferred } from "../../config/resolve-env-refs.js";
import { formatScope, type ScopeOptions, scopeFromOptions } from "../../core/scope.js";
import { autoDreamEnabled } from "../../edge/auto-dream-switch.js";
import { isLucidError } from "../../errors.js";
import type { Workspace } from "../../sdk/workspace.js";
import { choiceFlag, integerFlag } from "../args/flag-values.js";
import { defineCommand } from "../command.js";
import { chosenWorkspaceDir } from "../sleep/open-workspace.js";
import { UsageError } from "../usage-error.js";

/**
 * The background sweep of `lucid mcp` with `sleep.enabled`: on the schedule until the server stops,
 * each run a line on stderr. A sweep another process is running is skipped; a failed one is logged
 * and the next runs. `stopped` resolves once the loop has stopped and its last sweep finished.
 */
async function sleepInBackground(options: {
  workspace: Workspace;
  timeZone: string | undefined;
  signal: AbortSignal;
  log: (line: string) => void;
}): Promise<{ stopped: Promise<void> }> {
  const { parseSchedule, runOnSchedule } = await import("../../edge/sleep-schedule.js");
  const { workspace, log } = options;
  const schedule = parseSchedule(
    workspace.settings.frequency,
    // The zone the workspace counts its days in, so a 03:00 sweep is dated the day it runs.
    workspace.settings.timezone ?? options.timeZone ?? "UTC",
  );
  log(`Sleep sweeps ${workspace.dir} on ${schedule.describe()}.`);
  // Wrapped: an async function returning the loop's promise would wait for the loop to end.
  const stopped = runOnSchedule({
    schedule,
    signal: options.signal,
    job: () => workspace.sweep(),
    onRun: (run) => {
      if (run.skipped === "busy") log("Sleep: skipped a sweep, the previous one is still running.");
      else if (run.error !== undefined)
        log(
          `Sleep: ${isLucidError(run.error, "DREAM_LEASE_HELD") ? "skipped" : "failed"}: ${run.error instanceof Error ? run.error.message : String(run.error)}`,
        );
      else if (run.result !== undefined) {
        const failed = run.result.phases
          .filter((report) => report.outcome === "failed")
          .map((report) => report.phase);
        log(
          `Sleep: swept ${workspace.dir}: ${run.result.staged.length} staged, ${run.result.promotion?.promoted.length ?? 0} promoted${failed.length > 0 ? `; failed: ${failed.join(", ")}` : ""}.`,
        );
      }
    },
  }).catch((error: unknown) =>
    log(`Sleep stopped: ${error instanceof Error ? error.message : String(error)}`),
  );
  return { stopped };
}

export const mcpCommand = defineCommand({
  name: "mcp",
  summary: "Serve memory to agents over MCP: stdio, or Streamable HTTP with --http",
  args: [],
  flags: {
    http: { type: "boolean", description: "serve Streamable HTTP at /mcp instead of stdio" },
    port: { type: "string", valueHint: "N", description: "HTTP port (default 8787; 0 picks a free one)" },
    host: {
      type: "string",
      valueHint: "HOST",
      description: "HTTP address (default 127.0.0.1; any other needs mcp.token in the config)",
    },
    workspace: {
      type: "string",
      valueHint: "DIR",
      description:
        "also search DIR's Markdown notes and record recalls for sleep (default: sleep.workspace in the config)",
    },
    sessions: {
      type: "string",
      valueHint: "MODE",
      description:
        "connection (default: each connection is a session) or explicit (only the ids the host passes to memory_session / memory_capture; for plugins)",
    },
    "any-scope": {
      type: "boolean",
      description:
        "let calls name any user, agent or app (default: a server started with --user serves that user only)",
    },
  },
  scoped: true,
  examples: [
    "claude mcp add lucid -- lucid mcp --user alice",
    "lucid mcp --user alice",
    "lucid mcp --any-scope",
    "lucid mcp --user alice --workspace ~/.openclaw/workspace",
    "lucid mcp --http --port 8787",
    "LUCID_MCP_TOKEN=s3cret lucid mcp --http --host 0.0.0.0",
  ],
  notes: [
    "Tools: memory_search, memory_add, memory_get, memory_list, memory_update, memory_delete, " +
      "memory_history, memory_event_list, memory_event_status, memory_dream, memory_sleep_events, memory_recall, " +
      "memory_capture, memory_session. Calls act on the default scope " +
      "(--user/--agent/--app, LUCID_USER_ID…, or the config's defaults) unless they pass user_id…",
    "With --workspace DIR (or sleep.workspace in the config), memory_search also returns snippets of DIR's " +
      "Markdown notes and records recalls of its daily notes for `lucid sleep`; memory_get reads a note's lines by path#Lx-Ly.",
    "--user/--agent/--app also bind every session to that scope: a call naming another user is refused " +
      "(SCOPE_NOT_ALLOWED) unless the server runs with --any-scope. Over HTTP, mcp.tokens in the config " +
      "gives tokens bound to one scope each.",
    "Each connection is one session for the auto-dream gate; when the gate passes, `dream --auto` runs " +
      "in the background. LUCID_DREAM=off switches that off.",
    "With a workspace and sleep.enabled: true in the config, the server also sweeps the workspace on " +
      "sleep.frequency (default 0 3 * * *, in sleep.timezone) while it runs; memory_sleep_events lists what sleep did.",
    "stdout carries the protocol in stdio mode; messages go to stderr.",
  ],
  async run(context) {
    const { flags, io } = context;
    const port = integerFlag(flags.port, "port", "mcp");
    if (!flags.http && (port !== undefined || flags.host !== undefined)) {
      throw new UsageError("--port and --host need --http.", "mcp");
    }
    const sessions =
      choiceFlag(flags.sessions, "sessions", ["connection", "explicit"] as const, "mcp") ?? "connection";
    const { loaded } = await context.setup();
    const defaults = await context.scope();
    // The scope flags bind the server; the environment and the config only default it.
    const explicit = await context.scope({ defaults: false });
    const bound = flags["any-scope"] === true || Object.keys(explicit).length === 0 ? undefined : explicit;
    const workspace =
      flags.workspace !== undefined || loaded.config.sleep?.workspace !== undefined
        ? await chosenWorkspaceDir(context, flags.workspace)
        : undefined;
    const memory = await context.memory();
    // Loaded here, not at the top: the MCP SDK is a tenth of a second that no other command needs.
    const [{ EventRegistry }, { startHttpServer }, { createMcpServer }, { shutdownSignal }, { serveStdio }] =
      await Promise.all([
        import("../../edge/events.js"),
        import("../../mcp/http.js"),
        import("../../mcp/server.js"),
        import("../../edge/shutdown-signal.js"),
        import("../../mcp/stdio.js"),
      ]);
    // The workspace the server sleeps: its scope, where promotions go, is what a session bound to a
    // scope must hold to use the notes (edge/workspace-access.ts).
    const notes =
      workspace === undefined
        ? undefined
        : memory.workspace(workspace, { ...defaults, settings: loaded.config.sleep });
    const events = new EventRegistry((await memory.ready()).clock);
    const autoDream = { enabled: autoDreamEnabled(io.env) };
    const log = (line: string) => void io.stderr.write(`${line}\n`);
    const newServer = (session: { bound?: ScopeOptions } = {}) => {
      const sessionBound = session.bound ?? bound;
      return createMcpServer({
        memory,
        defaults,
        events,
        autoDream,
        sessions,
        log,
        ...(notes === undefined ? {} : { workspace: notes.dir, workspaceScope: notes.scope }),
        ...(loaded.config.sleep === undefined ? {} : { sleepSettings: loaded.config.sleep }),
        ...(sessionBound === undefined ? {} : { bound: sessionBound }),
      });
    };
    const { signal, dispose } = shutdownSignal();
    // sleep.enabled: the server sweeps its workspace on sleep.frequency while it runs (a stdio
    // server also stops when its client closes stdin, so the sweep has its own stop).
    const stopSleeping = new AbortController();
    signal.addEventListener("abort", () => stopSleeping.abort(), { once: true });
    const sleeping =
      notes !== undefined && loaded.config.sleep?.enabled === true
        ? await sleepInBackground({
            workspace: notes,
            timeZone: loaded.config.timeZone,
            signal: stopSleeping.signal,
            log,
          })
        : undefined;
    let url: string | undefined;
    try {
      if (flags.http) {
        const http = await startHttpServer({
          createServer: newServer,
          host: flags.host,
          port,
          token: readDeferred(loaded.config.mcp?.token),
          tokens: Object.values(loaded.config.mcp?.tokens ?? {}).map((entry) => ({
            token: readDeferred(entry.token),
            scope: entry.scope,
          })),
        });
        url = http.url;
        const scope = formatScope(scopeFromOptions(defaults)) || "none (calls must pass user_id…)";
        log(`Lucid MCP server listening on ${http.url} (default scope: ${scope}). Ctrl-C stops it.`);
        await once(signal, "abort");
        await http.close();
      } else {
        await serveStdio(newServer(), {
          stdin: io.stdin,
          stdout: io.stdout as unknown as NodeJS.WritableStream,
          signal,
        });
      }
      // A dream or a sweep still running commits (or rolls back) before the store closes.
      await events.idle();
    } finally {
      // Also when serving failed: a sweep still running finishes before the store closes.
      stopSleeping.abort();
      await sleeping?.stopped;
      dispose();
    }
    return {
      json: { transport: flags.http ? "http" : "stdio", ...(url === undefined ? {} : { url }) },
      render: () => "",
    };
  },
});
