import { once } from "node:events";
import { formatScope, scopeFromOptions } from "../../core/scope.js";
import { integerFlag } from "../args/flag-values.js";
import { defineCommand } from "../command.js";
import { chosenWorkspaceDir } from "../sleep/open-workspace.js";
import { UsageError } from "../usage-error.js";

export const serveCommand = defineCommand({
  name: "serve",
  summary: "Serve a Mem0-compatible REST API (MemoryClient's host) and the web UI on this machine",
  args: [],
  flags: {
    port: { type: "string", valueHint: "N", description: "port (default 8765; 0 picks a free one)" },
    host: {
      type: "string",
      valueHint: "HOST",
      description: "address (default 127.0.0.1; any other needs an API key: lucid keys create)",
    },
    "rate-limit": {
      type: "string",
      valueHint: "N",
      description: "requests a second per key, with bursts of twice that (default 50; 0 switches it off)",
    },
    workspace: {
      type: "string",
      valueHint: "DIR",
      description:
        "the Markdown workspace the sleep routes and the UI's Sleep view act on (default: sleep.workspace in the config)",
    },
    "max-body": {
      type: "string",
      valueHint: "BYTES",
      description: "largest request body (default 4194304, 4 MiB)",
    },
  },
  scoped: false,
  examples: [
    "lucid serve                                   # then open http://127.0.0.1:8765/",
    "lucid serve --workspace ~/.openclaw/workspace  # with the Sleep routes and view",
    "lucid keys create --user alice && lucid serve --host 0.0.0.0 --port 8765",
    '# then: new MemoryClient({ apiKey, host: "http://127.0.0.1:8765" })',
  ],
  notes: [
    "Routes: Mem0's platform API as MemoryClient (mem0ai 3.x) and @mem0/openclaw-mem0 call it: /v1/ping/, " +
      "/v3/memories/add/, /v3/memories/search/, /v3/memories/, /v1/memories/{id}/ and its history/, /v1/batch/, " +
      "/v1/entities/, /v2/entities/{type}/{id}/, the project routes, /v1/memories/ (v1 add, delete by scope), " +
      "/v2/memories/search/, /v2/memories/, /v1/events/ and /v1/event/{id}/.",
    "With API keys (lucid keys create --user alice), every request needs Authorization: Token <key> and acts " +
      "only within the key's scope; revoking the last key does not open the server again (it then refuses everyone). " +
      "Without keys only clients on this machine are served, and requests name " +
      "their scope (user_id…) or get the default one (LUCID_USER_ID, the config's defaults).",
    "Lucid's own routes live under /lucid/v1/ (dream plan/apply/runs/undo, sleep, scan, export, import); " +
      "/openapi.json describes every route. The web UI is at / (built by npm run build).",
    "Ctrl-C (or SIGTERM) stops it: requests in flight get 5 s to finish.",
  ],
  async run(context) {
    const { flags, io } = context;
    const port = integerFlag(flags.port, "port", "serve");
    const rate = integerFlag(flags["rate-limit"], "rate-limit", "serve");
    const maxBody = integerFlag(flags["max-body"], "max-body", "serve");
    if (maxBody !== undefined && maxBody < 1) throw new UsageError("--max-body must be at least 1.", "serve");
    const { loaded } = await context.setup();
    const defaults = await context.scope();
    const workspaceDir =
      flags.workspace !== undefined || loaded.config.sleep?.workspace !== undefined
        ? await chosenWorkspaceDir(context, flags.workspace)
        : undefined;
    const memory = await context.memory();
    // Loaded here: Hono and the routes are for this command only.
    const [{ EventRegistry }, { startRestServer }, { shutdownSignal }] = await Promise.all([
      import("../../edge/events.js"),
      import("../../http/server.js"),
      import("../../edge/shutdown-signal.js"),
    ]);
    const events = new EventRegistry((await memory.ready()).clock);
    const { signal, dispose } = shutdownSignal();
    try {
      const server = await startRestServer({
        memory,
        events,
        home: context.paths.home,
        defaults,
        log: (line) => io.stderr.write(line),
        ...(workspaceDir === undefined
          ? {}
          : {
              // Its promotions go to the default scope, as `lucid sleep` and `lucid mcp` send them.
              workspace: memory.workspace(workspaceDir, {
                ...defaults,
                ...(loaded.config.sleep === undefined ? {} : { settings: loaded.config.sleep }),
              }),
            }),
        ...(flags.host === undefined ? {} : { host: flags.host }),
        ...(port === undefined ? {} : { port }),
        ...(maxBody === undefined ? {} : { maxBodyBytes: maxBody }),
        ...(rate === undefined
          ? {}
          : { rateLimit: rate === 0 ? null : { perSecond: rate, burst: rate * 2 } }),
      });
      // Whatever fails from here on, the server closes: a listening socket would keep the process alive.
      try {
        const scope = formatScope(scopeFromOptions(defaults)) || "none (requests name user_id…)";
        const keys = server.keyCount;
        const access =
          keys === 0
            ? "no API keys: this machine only; `lucid keys create --user <id>` adds one"
            : `${keys} API ${keys === 1 ? "key" : "keys"}`;
        io.stderr.write(
          `Lucid REST API listening on ${server.url} (${access}; default scope: ${scope}); the web UI is at ${server.url}/. Ctrl-C stops it.\n`,
        );
        await once(signal, "abort");
      } finally {
        await server.close();
      }
      await events.idle();
      return { json: { url: server.url }, render: () => "" };
    } finally {
      dispose();
    }
  },
});
