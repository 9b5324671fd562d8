/**
 * Which callers may use the server's workspace (`lucid serve --workspace DIR`): the one rule of
 * `edge/workspace-access.ts`, for a key. A key that may not is not told where the workspace is.
 *
 * @module
 */

import { mayUseWorkspace, requireWorkspaceAccess, type WorkspaceHints } from "../edge/workspace-access.js";
import { LucidError } from "../errors.js";
import type { Workspace } from "../sdk/workspace.js";
import type { Caller, RestDeps } from "./rest-env.js";

/** What a REST client can do about a workspace outside its key's scope. */
const REST_WORKSPACE_HINTS: WorkspaceHints = {
  holder: "your key's",
  instead: (workspaceScope) => `a key bound to ${workspaceScope}`,
};

/** The workspace, when the server has one and this caller may use it. */
export function usableWorkspace(deps: RestDeps, caller: Caller): Workspace | undefined {
  const workspace = deps.workspace;
  return workspace !== undefined && mayUseWorkspace(workspace.scope, caller.bound) ? workspace : undefined;
}

/** The workspace for a sleep route: WORKSPACE_NOT_FOUND without one, SCOPE_NOT_ALLOWED for a key outside it. */
export function workspaceFor(deps: RestDeps, caller: Caller): Workspace {
  const workspace = deps.workspace;
  if (workspace === undefined) {
    throw new LucidError(
      "WORKSPACE_NOT_FOUND",
      "This server has no workspace: start it with `lucid serve --workspace DIR` (or set sleep.workspace in lucid.config.json) to use sleep.",
    );
  }
  requireWorkspaceAccess(workspace.scope, caller.bound, REST_WORKSPACE_HINTS);
  return workspace;
}
