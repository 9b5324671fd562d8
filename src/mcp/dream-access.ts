/**
 * The dream operations the server uses — gate, `--if-due`, `--auto`, committed runs — in one
 * place, composed from the library's runners (`dream/apply/auto.ts`, `dream/gate/gate.ts`) and
 * `memory.dream.plan`, under the scope lease like `lucid dream --auto`.
 *
 * @module
 */

import { type AutoResult, type IfDueResult, runAuto, runIfDue } from "../dream/apply/auto.js";
import { checkGate, type GateOptions, type GateStatus } from "../dream/gate/gate.js";
import type { Memory } from "../memory/memory.js";
import type { ScopeOptions } from "../memory/types.js";
import type { DreamRunRecord, Scope } from "../store/store.js";
import type { ToolScope } from "./scope.js";

export type { AutoResult, IfDueResult };

export interface DreamAccess {
  /** Whether the scope is due (cheap gates first); changes nothing. */
  gate(scope: ToolScope, options?: GateOptions): Promise<GateStatus>;
  /** `dream --if-due`: runs `--auto` when the gate passes. */
  ifDue(scope: ToolScope, options?: GateOptions): Promise<IfDueResult>;
  /** `dream --auto`, whatever the gate says. */
  auto(scope: ToolScope): Promise<AutoResult>;
  /** Committed runs of exactly this scope, newest first. */
  runs(scope: ToolScope, limit?: number): Promise<DreamRunRecord[]>;
}

const OPTION_KEYS = { user_id: "userId", agent_id: "agentId", app_id: "appId", run_id: "runId" } as const;

/**
 * @example
 * const { ran, gate } = await dreamAccess(memory).ifDue(scope, { thresholds: { minSessions: 2 } });
 */
export function dreamAccess(memory: Memory): DreamAccess {
  const makePlan = (scope: Scope) => memory.dream.plan(scopeOptions(scope));
  return {
    async gate(scope, options = {}) {
      return checkGate(await memory.ready(), scope.scope, options);
    },
    async ifDue(scope, options = {}) {
      return runIfDue(await memory.ready(), scope.scope, makePlan, options);
    },
    async auto(scope) {
      return runAuto(await memory.ready(), scope.scope, makePlan);
    },
    async runs(scope, limit = 100) {
      return (await memory.ready()).store.listDreamRuns(scope.key, limit);
    },
  };
}

function scopeOptions(scope: Scope): ScopeOptions {
  const options: ScopeOptions = {};
  for (const [key, option] of Object.entries(OPTION_KEYS)) {
    const value = scope[key as keyof typeof OPTION_KEYS];
    if (value !== undefined) options[option] = value;
  }
  return options;
}
