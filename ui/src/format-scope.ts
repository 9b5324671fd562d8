/**
 * A scope for people: `user_id=alice, agent_id=coder`, its ids as they are (never percent-encoded,
 * as the server's stable scope keys are).
 *
 * @module
 */

import { SCOPE_KEYS, type Scope } from "./wire.js";

export function formatScope(scope: Scope): string {
  const parts = SCOPE_KEYS.flatMap((key) => (scope[key] === undefined ? [] : [`${key}=${scope[key]}`]));
  return parts.length === 0 ? "no scope" : parts.join(", ");
}
