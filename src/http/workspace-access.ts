/**
 * Which callers may use the server's workspace (`lucid serve --workspace DIR`): its promoted
 * memories live in its scope (default `agent_id=main`), so a key may use it only when that scope is
 * inside its own. A key that may not is not told where the workspace is.
 *
 * @module
 */

import { formatScope, scopeFromOptions, withinScope } from "../core/scope.js";
import { LucidError } from "../errors.js";
import type { Workspace } from "../sdk/workspace.js";
import type { Caller, RestDeps } from "./rest-env.js";

/** The workspace, when the server has one and this caller may use it. */
export function usableWorkspace(deps: RestDeps, caller: Caller): Workspace | undefined {
  const workspace = deps.workspace;
  if (workspace === undefined) return undefined;
  const bound = caller.bound === undefined ? {} : scopeFromOptions(caller.bound);
  return withinScope(workspace.scope, bound) ? workspace : undefined;
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
  const bound = caller.bound === undefined ? {} : scopeFromOptions(caller.bound);
  if (!withinScope(workspace.scope, bound)) {
    throw new LucidError(
      "SCOPE_NOT_ALLOWED",
      `This workspace promotes into ${formatScope(workspace.scope)}, outside your key's scope ${formatScope(bound)}: use a key bound to ${formatScope(workspace.scope)}.`,
      { details: { workspaceScope: workspace.scope } },
    );
  }
  return workspace;
}
