/**
 * Sessions and auto-dream: every client connection is one interactive session. The first call a
 * session makes in a scope counts it for that scope's gate; then, when the gate passes, the scope's
 * `dream --auto` runs in the background as an event — after the reply, never delaying it.
 *
 * @module
 */

import type { ApplyCounts } from "../dream/apply/apply-plan.js";
import type { CallScope } from "../edge/call-scope.js";
import { reportError } from "../edge/error-report.js";
import type { EventRegistry } from "../edge/events.js";
import { isLucidError } from "../errors.js";
import type { GateThresholds } from "../policy/policy.js";
import type { Memory } from "../sdk/memory.js";

export interface AutoDreamOptions {
  /** False switches auto-dream off (`LUCID_DREAM=off`, read by the caller). Default true. */
  readonly enabled?: boolean;
  /** Over the Memory's policy `gate` (which `lucid.config.json` `dream.gate` sets). */
  readonly thresholds?: Partial<GateThresholds>;
}

export interface SessionTrackerInput {
  readonly memory: Memory;
  readonly events: EventRegistry;
  readonly autoDream?: AutoDreamOptions | undefined;
  /** Where background failures are reported (never with memory text). */
  readonly log: (line: string) => void;
}

/** What an auto-dream event holds as its result: the run's counts, not its plan. */
export type AutoDreamOutcome =
  | { readonly ran: true; readonly runId: string | null; readonly counts: ApplyCounts; readonly line: string }
  | { readonly ran: false; readonly reason: string };

/** The trigger recorded for MCP sessions: interactive, so it counts for the gate. */
export const MCP_TRIGGER = "mcp";

/**
 * A function to call after every tool call with its session and scope; it does the work once per
 * session and scope, in the background, and never throws.
 *
 * @example
 * const touched = createSessionTracker({ memory, events, log: console.error });
 * touched("session-1", resolveCallScope({ userId: "alice" }, {}, undefined, MCP_SCOPE_HINTS));
 */
export function createSessionTracker(
  input: SessionTrackerInput,
): (sessionId: string, scope: CallScope) => void {
  const seen = new Set<string>();
  return (sessionId, scope) => {
    const key = `${sessionId}\n${scope.key}`;
    if (seen.has(key)) return;
    seen.add(key);
    const work = recordAndDream(input, sessionId, scope).catch((error: unknown) => {
      const { code, message } = reportError(error);
      input.log(`lucid mcp: session ${sessionId} on ${scope.key}: ${code}: ${message}`);
    });
    // Shutdown waits for it, so the store is not closed under a gate check about to start a dream.
    input.events.hold(work);
  };
}

async function recordAndDream(
  input: SessionTrackerInput,
  sessionId: string,
  scope: CallScope,
): Promise<void> {
  await input.memory.sessions.record(sessionId, { trigger: MCP_TRIGGER, ...scope.options });
  await dreamIfDue(input, scope);
}

/** What `dreamIfDue` did: the background event it started, or why none. */
export type AutoDreamStart =
  | { readonly started: string }
  | { readonly started: null; readonly reason: string };

/**
 * Starts the scope's `dream --auto` as a background event when its gate passes and no dream of the
 * scope is running in this process; the lease keeps other processes out.
 */
export async function dreamIfDue(
  input: Omit<SessionTrackerInput, "log">,
  scope: CallScope,
): Promise<AutoDreamStart> {
  const { memory, events, autoDream = {} } = input;
  if (autoDream.enabled === false) return { started: null, reason: "auto-dream is off (LUCID_DREAM)" };
  const running = () => events.active("dream", scope.key);
  if (running() !== undefined) return { started: null, reason: "a dream of this scope is running" };
  const gateOptions = autoDream.thresholds === undefined ? {} : { thresholds: autoDream.thresholds };
  const gate = await memory.dream.gate(scope.options, gateOptions);
  if (!gate.eligible) return { started: null, reason: gate.reason ?? "not due" };
  // Checked again after the await: another session of this process may have started one meanwhile.
  if (running() !== undefined) return { started: null, reason: "a dream of this scope is running" };
  const event = events.start({
    type: "dream",
    trigger: "auto",
    scope: scope.scope,
    scopeKey: scope.key,
    job: async (): Promise<AutoDreamOutcome> => {
      try {
        const outcome = await memory.dream.ifDue(scope.options, gateOptions);
        if (!outcome.ran || outcome.result === undefined) {
          return { ran: false, reason: outcome.gate.reason ?? "not due" };
        }
        const { runId, counts, line } = outcome.result;
        return { ran: true, runId, counts, line };
      } catch (error) {
        // Another process is dreaming this scope: its run is the one that counts, not a failure here.
        if (isLucidError(error, "DREAM_LEASE_HELD")) return { ran: false, reason: error.message };
        throw error;
      }
    },
    summarize: (outcome) => (outcome.ran ? outcome.line : `not run: ${outcome.reason}`),
  });
  return { started: event.id };
}
