import type { ScopeOptions } from "../../memory/types.js";

const NAMES = { userId: "user_id", agentId: "agent_id", appId: "app_id", runId: "run_id" } as const;

/** `user_id=alice app_id=billing` */
export function describeScope(scope: ScopeOptions): string {
  return (Object.keys(NAMES) as (keyof ScopeOptions)[])
    .filter((key) => scope[key] !== undefined)
    .map((key) => `${NAMES[key]}=${scope[key]}`)
    .join(" ");
}
