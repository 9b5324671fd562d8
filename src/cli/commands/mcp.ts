import { once } from "node:events";
import { readDeferred } from "../../config/resolve-env-refs.js";
import { formatScope, type ScopeOptions, scopeFromOptions } from "../../core/scope.js";
import { autoDreamEnabled } from "../../edge/auto-dream-switch.js";
import { integerFlag } from "../args/flag-values.js";
import { defineCommand } from "../command.js";
import { chosenWorkspaceDir } from "../sleep/open-workspace.js";
import { UsageError } from "../usage-error.js";

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
      "memory_history, memory_event_list, memory_event_status, memory_dream. Calls act on the default scope " +
      "(--user/--agent/--app, LUCID_USER_ID…, or the config's defaults) unless they pass user_id…",
    "With --workspace DIR (or sleep.workspace in the config), memory_search also returns snippets of DIR's " +
      "Markdown notes and records recalls of its daily notes for `lucid sleep`; memory_get reads a note's lines by path#Lx-Ly.",
    "--user/--agent/--app also bind every session to that scope: a call naming another user is refused " +
      "(SCOPE_NOT_ALLOWED) unless the server runs with --any-scope. Over HTTP, mcp.tokens in the config " +
      "gives tokens bound to one scope each.",
    "Each connection is one session for the auto-dream gate; when the gate passes, `dream --auto` runs " +
      "in the background. LUCID_DREAM=off switches that off.",
    "stdout carries the protocol in stdio mode; messages go to stderr.",
  ],
  async run(context) {
    const { flags, io } = context;
    const port = integerFlag(flags.port, "port", "mcp");
    if (!flags.http && (port !== undefined || flags.host !== undefined)) {
      throw new UsageError("--port and --host need --http.", "mcp");
    }
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
        log,
        ...(workspace === undefined ? {} : { workspace }),
        ...(sessionBound === undefined ? {} : { bound: sessionBound }),
      });
    };
    const { signal, dispose } = shutdownSignal();
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
      // A dream still running commits (or rolls back) before the store closes.
      await events.idle();
    } finally {
      dispose();
    }
    return {
      json: { transport: flags.http ? "http" : "stdio", ...(url === undefined ? {} : { url }) },
      render: () => "",
    };
  },
});
