/**
 * Who may use a server's Markdown workspace, at every edge (`lucid serve --workspace`, `lucid mcp
 * --workspace`). Sleep promotes what keeps being recalled into the workspace's scope (default
 * `agent_id=main`), and every search of the notes records recalls that steer it, so the notes are
 * that scope's: a caller bound to a scope (an API key, an MCP token, `lucid mcp --user`) may read,
 * search or record them only when the workspace's scope lies inside its own. An unbound caller may.
 * A caller that may not is not told where the workspace is.
 *
 * @module
 */

import { formatScope, type Scope, type ScopeOptions, scopeFromOptions, withinScope } from "../core/scope.js";
import { LucidError } from "../errors.js";

/** What a caller of this edge can do about a refused workspace: the end of the message. */
export interface WorkspaceHints {
  /** Whose scope refused it, before "scope user_id=alice": "your key's", "this session's". */
  readonly holder: string;
  /** After "use ": what to use instead, given the workspace's scope (`agent_id=main`). */
  readonly instead: (workspaceScope: string) => string;
}

/**
 * Whether a caller bound to `bound` (none: unbound) may use a workspace promoting into `workspaceScope`.
 *
 * @example
 * mayUseWorkspace({ agent_id: "main" }, { userId: "alice" }); // false
 * mayUseWorkspace({ agent_id: "main" }, { agentId: "main" }); // true
 */
export function mayUseWorkspace(workspaceScope: Scope, bound: ScopeOptions | undefined): boolean {
  return bound === undefined || withinScope(workspaceScope, scopeFromOptions(bound));
}

/**
 * `SCOPE_NOT_ALLOWED` when the caller may not use the workspace (`mayUseWorkspace`): the message
 * names the workspace's scope and what to use instead, never its directory.
 *
 * @example
 * requireWorkspaceAccess({ agent_id: "main" }, { userId: "alice" }, hints); // throws SCOPE_NOT_ALLOWED
 */
export function requireWorkspaceAccess(
  workspaceScope: Scope,
  bound: ScopeOptions | undefined,
  hints: WorkspaceHints,
): void {
  if (mayUseWorkspace(workspaceScope, bound)) return;
  const promotesInto = formatScope(workspaceScope);
  throw new LucidError(
    "SCOPE_NOT_ALLOWED",
    `This workspace promotes into ${promotesInto}, outside ${hints.holder} scope ${formatScope(scopeFromOptions(bound ?? {}))}: use ${hints.instead(promotesInto)}.`,
    { details: { workspaceScope } },
  );
}
