import { expect } from "vitest";
import type { ContractPart } from "./harness.js";

/** The leases sub-port. */
export const leasesPart: ContractPart = {
  name: "leases",
  cases(it, store) {
    it("counts each interactive session once and restarts the count on completion", async () => {
      const key = "user_id=alice";
      expect(await store().dreamGateState(key)).toEqual({
        lastConsolidatedAt: null,
        sessionsSince: 0,
        lastSessionId: null,
      });
      expect(await store().recordSession(key, "s1", "user", "2026-01-01T00:00:00.000Z")).toBe(true);
      expect(await store().recordSession(key, "s2", "user", "2026-01-01T01:00:00.000Z")).toBe(true);
      expect(await store().recordSession(key, "s1", "user", "2026-01-01T02:00:00.000Z")).toBe(false);
      expect(await store().dreamGateState(key)).toEqual({
        lastConsolidatedAt: null,
        sessionsSince: 2,
        lastSessionId: "s2",
      });
      expect((await store().dreamGateState("user_id=bob")).sessionsSince).toBe(0);
      await store().recordDreamCompletion(key, "2026-01-02T00:00:00.000Z");
      expect(await store().dreamGateState(key)).toEqual({
        lastConsolidatedAt: "2026-01-02T00:00:00.000Z",
        sessionsSince: 0,
        lastSessionId: null,
      });
      expect(await store().recordSession(key, "s1", "user", "2026-01-02T01:00:00.000Z")).toBe(true);
    });
    it("leases a scope to one holder at a time until it expires or is released", async () => {
      const key = "user_id=alice";
      const a = { holder: "a", host: "host-a", pid: 1 };
      const b = { holder: "b", host: "host-b", pid: 2 };
      const hour = 3_600_000;
      expect(await store().acquireLease(key, a, "2026-01-01T00:00:00.000Z", hour)).toMatchObject({
        acquired: true,
      });
      expect(await store().acquireLease(key, b, "2026-01-01T00:30:00.000Z", hour)).toEqual({
        acquired: false,
        heldBy: { ...a, acquiredAt: "2026-01-01T00:00:00.000Z", expiresAt: "2026-01-01T01:00:00.000Z" },
      });
      expect(await store().acquireLease("user_id=bob", b, "2026-01-01T00:30:00.000Z", hour)).toMatchObject({
        acquired: true,
      });
      expect(await store().acquireLease(key, a, "2026-01-01T00:40:00.000Z", hour)).toMatchObject({
        acquired: true,
      });
      expect(await store().acquireLease(key, b, "2026-01-01T01:40:00.000Z", hour)).toMatchObject({
        acquired: true,
      });
      await store().releaseLease(key, "a");
      expect(await store().acquireLease(key, a, "2026-01-01T01:41:00.000Z", hour)).toMatchObject({
        acquired: false,
      });
      await store().releaseLease(key, "b");
      expect(await store().acquireLease(key, a, "2026-01-01T01:42:00.000Z", hour)).toMatchObject({
        acquired: true,
      });
    });
    it("takes over a lease only from the holder it names as gone", async () => {
      const key = "user_id=alice";
      const a = { holder: "a", host: "h", pid: 1 };
      const b = { holder: "b", host: "h", pid: 2 };
      const hour = 3_600_000;
      await store().acquireLease(key, a, "2026-01-01T00:00:00.000Z", hour);
      expect(
        await store().acquireLease(key, b, "2026-01-01T00:01:00.000Z", hour, "someone-else"),
      ).toMatchObject({
        acquired: false,
      });
      expect(await store().acquireLease(key, b, "2026-01-01T00:01:00.000Z", hour, "a")).toMatchObject({
        acquired: true,
        lease: { holder: "b" },
      });
    });
  },
};
