/**
 * The scope parameters every tool takes, described for the model, and what a refused scope's (or
 * workspace's) message tells an MCP client to do.
 *
 * @module
 */

import { z } from "zod";
import type { ScopeHints } from "../edge/call-scope.js";
import type { WorkspaceHints } from "../edge/workspace-access.js";

/** `lucid mcp`'s ways to another scope or a default one: its flags. */
export const MCP_SCOPE_HINTS: ScopeHints = {
  otherScope: "start the server with --any-scope (or use a token bound to that scope)",
  noScope:
    "or start the server with a default scope (--user, LUCID_USER_ID, or `defaults` in lucid.config.json)",
};

/** A session bound to a token's scope (or `--user`'s) and a workspace promoting elsewhere. */
export const MCP_WORKSPACE_HINTS: WorkspaceHints = {
  holder: "this session's",
  instead: (workspaceScope) =>
    `a token bound to ${workspaceScope} (mcp.tokens in lucid.config.json), or a server started for that scope`,
};

export const scopeParams = {
  user_id: z
    .string()
    .min(1)
    .optional()
    .describe("Whose memories: the user id. Leave out to use the server's default user."),
  agent_id: z
    .string()
    .min(1)
    .optional()
    .describe("Narrow to one agent's memories. Leave out to use the server's default agent, if any."),
  app_id: z
    .string()
    .min(1)
    .optional()
    .describe("Narrow to one application's memories. Leave out to use the server's default app, if any."),
  run_id: z
    .string()
    .min(1)
    .optional()
    .describe("Narrow to one run or conversation (short-lived memories). Usually left out."),
};
