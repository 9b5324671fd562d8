/**
 * Expired memories: an explicit `expiresAt` that has passed, or an age beyond the category's TTL
 * (counted from `createdAt`, against the plan's clock). Reads hide these already; a dream deletes
 * them (Mem0's dream protocol: "operational older than 7 days; project older than 90 days").
 *
 * @module
 */

import type { Analyser } from "../analyser.js";
import { ageInDays, categoryOf } from "../memory-facts.js";
import type { DeleteAction } from "../plan.js";

/**
 * @example
 * analyseExpired(snapshot, policy);
 * // => [{ kind: "delete", ids: ["m1"], reason: "expired", why: { rule: "category_ttl", detail: "operational memory 12 days old; operational expires after 7 days", … } }]
 */
export const analyseExpired: Analyser = (snapshot, policy) => {
  const actions: DeleteAction[] = [];
  for (const memory of snapshot.memories) {
    const age = ageInDays(memory.createdAt, snapshot.now);
    const ageDays = Math.floor(age);
    if (memory.expiresAt !== null && memory.expiresAt <= snapshot.now) {
      actions.push({
        kind: "delete",
        ids: [memory.id],
        reason: "expired",
        why: {
          rule: "expiration_date",
          detail: `expiration date ${memory.expiresAt} has passed`,
          evidence: { expiresAt: memory.expiresAt, ageDays },
        },
      });
      continue;
    }
    const category = categoryOf(memory, policy);
    const ttlDays = category === null ? null : (policy.categories[category]?.ttlDays ?? null);
    if (category === null || ttlDays === null || age <= ttlDays) continue;
    actions.push({
      kind: "delete",
      ids: [memory.id],
      reason: "expired",
      why: {
        rule: "category_ttl",
        detail: `${category} memory ${ageDays} days old; ${category} expires after ${ttlDays} days`,
        evidence: { category, ageDays, ttlDays },
      },
    });
  }
  return actions;
};
