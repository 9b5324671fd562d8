import { describe, expect, it } from "vitest";
import { analyseExpired } from "../../src/dream/analyse/expired.js";
import { resolvePolicy } from "../../src/policy/resolve-policy.js";
import { NOW, snapshotOf } from "./make-snapshot.js";

const policy = await resolvePolicy();
const daysAgo = (days: number) => new Date(Date.parse(NOW) - days * 86_400_000).toISOString();

describe("analyseExpired", () => {
  it("deletes memories older than their category's TTL, counted from createdAt", () => {
    const actions = analyseExpired(
      snapshotOf([
        { id: "op-old", text: "Deploy queue is paused", category: "operational", createdAt: daysAgo(8) },
        { id: "op-new", text: "Deploy queue is paused", category: "operational", createdAt: daysAgo(6) },
        { id: "project-old", text: "Sprint goal is search", category: "project", createdAt: daysAgo(91) },
        {
          id: "typed",
          text: "Working on the parser",
          metadata: { type: "session_state" },
          createdAt: daysAgo(120),
        },
        { id: "forever", text: "User prefers tabs", category: "preference", createdAt: daysAgo(4000) },
        { id: "plain", text: "No category at all", createdAt: daysAgo(4000) },
      ]),
      policy,
    );
    expect(actions.map((action) => action.ids[0])).toEqual(["typed", "project-old", "op-old"]); // oldest first
    expect(actions[2]?.why).toMatchObject({
      rule: "category_ttl",
      evidence: { category: "operational", ageDays: 8, ttlDays: 7 },
    });
  });

  it("deletes memories whose explicit expiry has passed", () => {
    const [action] = analyseExpired(
      snapshotOf([{ text: "Conference badge pickup desk is in hall B", expiresAt: daysAgo(1) }]),
      policy,
    );
    expect(action?.why.rule).toBe("expiration_date");
  });

  it("uses the policy's retention", async () => {
    const short = await resolvePolicy({ config: { categories: { preference: { ttlDays: 30 } } } });
    const actions = analyseExpired(
      snapshotOf([{ text: "User prefers tabs", category: "preference", createdAt: daysAgo(31) }]),
      short,
    );
    expect(actions).toHaveLength(1);
  });
});
