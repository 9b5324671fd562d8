/**
 * `createMcpServer`: Lucid's memory as MCP tools, for one client connection (one session). Every
 * call resolves its scope from the server's defaults and its own parameters, runs one tool, and
 * answers with text plus structured content; every failure is a tool error (`tool-result.ts`).
 * After the reply, the session is counted for the scope and auto-dream may start in the background.
 *
 * @module
 */

import { randomUUID } from "node:crypto";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { RequestHandlerExtra } from "@modelcontextprotocol/sdk/shared/protocol.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  McpError,
  type ServerNotification,
  type ServerRequest,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { hasScope, type Scope, type ScopeOptions, scopeFromOptions, scopeToOptions } from "../core/scope.js";
import { type CallScope, resolveCallScope } from "../edge/call-scope.js";
import { EventRegistry } from "../edge/events.js";
import { createLazyMask } from "../edge/lazy-mask.js";
import { packageVersion } from "../edge/package-version.js";
import { mayUseWorkspace, requireWorkspaceAccess } from "../edge/workspace-access.js";
import { isLucidError } from "../errors.js";
import type { Memory } from "../sdk/memory.js";
import { DEFAULT_WORKSPACE_SCOPE } from "../sdk/workspace.js";
import type { SleepSettingsInput } from "../sleep/sleep-config.js";
import { type AutoDreamOptions, createSessionTracker, dreamIfDue } from "./auto-dream.js";
import { MCP_SCOPE_HINTS, MCP_WORKSPACE_HINTS } from "./scope-params.js";
import type { Tool, ToolCall } from "./tool.js";
import { errorResult, invalidArguments, replyResult } from "./tool-result.js";
import { TOOLS } from "./tools/index.js";

export interface McpServerOptions {
  readonly memory: Memory;
  /** The scope used when a call names none: `LUCID_USER_ID`… and the config's `defaults`. */
  readonly defaults?: ScopeOptions;
  /**
   * The scope this session is bound to (`lucid mcp --user alice`, or the scope of the token that
   * opened it): calls may narrow within it, never leave it (`SCOPE_NOT_ALLOWED`). None: any scope.
   */
  readonly bound?: ScopeOptions;
  /** Auto-dream after a session's first call; `{ enabled: false }` switches it off. */
  readonly autoDream?: AutoDreamOptions;
  /**
   * What a session is: `connection` (default) counts each client connection once per scope;
   * `explicit` counts only the session ids a host passes (memory_session, memory_capture's
   * `session_id`), for a host whose one connection serves many sessions (a plugin).
   */
  readonly sessions?: "connection" | "explicit";
  /** Shared by the sessions of one process (HTTP), so every session sees every background job. */
  readonly events?: EventRegistry;
  /** The session's id when the transport has none (stdio); default a random UUID. */
  readonly sessionId?: string;
  /**
   * A Markdown workspace (absolute path): memory_search also searches its notes and records recalls
   * of its daily notes for sleep, and memory_get reads its notes by `path#Lx-Ly`.
   */
  readonly workspace?: string;
  /**
   * The scope the workspace's promotions go to (`Workspace.scope` of the one the server sleeps);
   * default the server's default scope, or `agent_id=main` without one. Only a session whose `bound`
   * holds it (or an unbound one) may read or search the notes and record recalls that steer them.
   */
  readonly workspaceScope?: Scope;
  /** The config's `sleep` settings for the workspace (its time zone counts recall days). */
  readonly sleepSettings?: SleepSettingsInput;
  /** Background failures (auto-dream, session counting); default: ignored. */
  readonly log?: (line: string) => void;
}

const INSTRUCTIONS =
  "Lucid is your long-term memory. Search it (memory_search) before answering anything that may " +
  "depend on earlier conversations; store durable facts (memory_add) as short third-person sentences; " +
  "correct outdated facts (memory_update) rather than adding contradictions. Calls act on the default " +
  "user unless you pass user_id / agent_id / app_id / run_id. Consolidation (dreaming) runs on its own.";

/**
 * An MCP server with Lucid's tools, for one connection; connect it to a transport.
 *
 * @example
 * const memory = await openMemory({ path: "./agent.db" });
 * const server = createMcpServer({ memory, defaults: { userId: "alice" } });
 * await server.connect(new StdioServerTransport());
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const { memory } = options;
  // A server with a workspace and no default scope acts for the workspace's agent, as sleep does.
  const defaults =
    options.workspace !== undefined && Object.keys(options.defaults ?? {}).length === 0
      ? scopeToOptions(DEFAULT_WORKSPACE_SCOPE)
      : { ...options.defaults };
  // As `memory.workspace(dir, defaults)` has it, when the caller does not say.
  const defaultScope = scopeFromOptions(defaults);
  const workspaceScope =
    options.workspaceScope ?? (hasScope(defaultScope) ? defaultScope : DEFAULT_WORKSPACE_SCOPE);
  // Decided once: a session's binding does not change.
  const workspace =
    options.workspace !== undefined && mayUseWorkspace(workspaceScope, options.bound)
      ? options.workspace
      : undefined;
  const checkWorkspaceAccess = () => {
    if (options.workspace !== undefined)
      requireWorkspaceAccess(workspaceScope, options.bound, MCP_WORKSPACE_HINTS);
  };
  const events = options.events ?? new EventRegistry();
  const fallbackSessionId = options.sessionId ?? randomUUID();
  const log = options.log ?? (() => {});
  const touched = createSessionTracker({ memory, events, autoDream: options.autoDream, log });
  const hostCounted = new Set<string>();
  const shown = createLazyMask(() => memory.ready());
  const mcp = new McpServer({ name: "lucid", version: packageVersion() }, { instructions: INSTRUCTIONS });

  const invoke = async (
    tool: Tool,
    args: Record<string, unknown>,
    extra: RequestHandlerExtra<ServerRequest, ServerNotification>,
  ): Promise<CallToolResult> => {
    let used: CallScope | undefined;
    const call: ToolCall = {
      memory,
      events,
      ...(workspace === undefined ? {} : { workspace }),
      checkWorkspaceAccess,
      ...(options.sleepSettings === undefined ? {} : { sleepSettings: options.sleepSettings }),
      scope: (params) => {
        used = resolveCallScope(defaults, params, options.bound, MCP_SCOPE_HINTS);
        return used;
      },
      shown,
      dreamIfDue: (scope) => dreamIfDue({ memory, events, autoDream: options.autoDream }, scope),
    };
    try {
      return replyResult(await tool.run(args, call));
    } catch (error) {
      // A LucidError is the caller's to read; anything else is a bug, worth a line for the operator.
      if (!isLucidError(error))
        log(`lucid mcp: ${tool.name} failed: ${(error as Error).stack ?? String(error)}`);
      return errorResult(error);
    } finally {
      const connection = extra.sessionId ?? fallbackSessionId;
      // A host that names its own sessions counts them: its connection is not one more.
      if (typeof args.session_id === "string") hostCounted.add(connection);
      if (used !== undefined && options.sessions !== "explicit" && !hostCounted.has(connection))
        touched(connection, used);
    }
  };

  const schemas = new Map<string, { tool: Tool; schema: z.ZodObject }>();
  for (const tool of TOOLS) {
    const schema = z.strictObject(tool.input);
    schemas.set(tool.name, { tool, schema });
    mcp.registerTool(
      tool.name,
      {
        title: tool.title,
        description: tool.description,
        inputSchema: schema,
        annotations: tool.annotations,
      },
      (args: Record<string, unknown>, extra) => invoke(tool, args, extra),
    );
  }

  // The SDK answers bad arguments with a bare text; replace its tools/call handler so they are
  // INVALID_ARGUMENT tool errors like every other failure (listing stays the SDK's).
  mcp.server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const entry = schemas.get(request.params.name);
    if (entry === undefined) {
      throw new McpError(ErrorCode.InvalidParams, `Tool ${request.params.name} not found`);
    }
    const parsed = entry.schema.safeParse(request.params.arguments ?? {});
    if (!parsed.success) {
      return errorResult(invalidArguments(entry.tool.name, parsed.error, Object.keys(entry.tool.input)));
    }
    return invoke(entry.tool, parsed.data, extra);
  });
  return mcp;
}
