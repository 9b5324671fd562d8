/**
 * Sessions for the auto-dream gate. Only sessions a person took part in count: background
 * triggers (cron, heartbeat, automation, schedule, subagents — OpenClaw's non-interactive ones)
 * do not, and a session id counts once however often it is recorded.
 *
 * @module
 */

import type { MemoryContext } from "../../core/context.js";
import { checkId } from "../../core/inputs.js";
import { scopeKey as keyOf, requireScope, type ScopeOptions, scopeFromOptions } from "../../core/scope.js";
import { LucidError } from "../../errors.js";

export const NON_INTERACTIVE_TRIGGERS = [
  "cron",
  "heartbeat",
  "automation",
  "schedule",
  "subagent",
  "subagents",
] as const;

export interface RecordSessionOptions extends ScopeOptions {
  /** What started the session, e.g. `user`, `cli`, `mcp`, `cron`. Default `user`. */
  trigger?: string;
}

export interface RecordSessionResult {
  readonly counted: boolean;
  /** Why it did not count. */
  readonly reason?: "non_interactive" | "already_counted";
  readonly sessionsSince: number;
}

export async function recordSession(
  context: MemoryContext,
  sessionId: string,
  options: RecordSessionOptions = {},
): Promise<RecordSessionResult> {
  checkId(sessionId, "sessionId");
  const scope = requireScope(scopeFromOptions(options), "sessions.record");
  const trigger = (options.trigger ?? "user").toLowerCase();
  if (!/^[a-z][a-z0-9_-]*$/.test(trigger)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `trigger must be a word such as user or cron, got ${JSON.stringify(options.trigger)}.`,
    );
  }
  const scopeKey = keyOf(scope);
  if ((NON_INTERACTIVE_TRIGGERS as readonly string[]).includes(trigger)) {
    const state = await context.store.dreamGateState(scopeKey);
    return { counted: false, reason: "non_interactive", sessionsSince: state.sessionsSince };
  }
  const counted = await context.store.recordSession(
    scopeKey,
    sessionId,
    trigger,
    context.clock.now().toISOString(),
  );
  const state = await context.store.dreamGateState(scopeKey);
  return counted
    ? { counted, sessionsSince: state.sessionsSince }
    : { counted, reason: "already_counted", sessionsSince: state.sessionsSince };
}
