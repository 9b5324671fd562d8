import { describe, expect, it } from "vitest";
import { parseRetentionValue, retentionCategory } from "../../src/policy/retention-value.js";

describe("parseRetentionValue", () => {
  it.each([
    ["90d", 90],
    ["90 days", 90],
    ["1 day", 1],
    [" 30D ", 30],
    ["2 weeks", 14],
    ["3w", 21],
    ["6 months", 180],
    ["1y", 365],
    ["12h", 0.5],
    ["45", 45],
    [7, 7],
    [{ days: 10 }, 10],
    [{ ttl: "5d" }, 5],
  ])("reads %j as %j days", (value, days) => {
    expect(parseRetentionValue(value)).toBe(days);
  });

  it.each(["forever", "never", "Permanent", null])("reads %j as never expiring", (value) => {
    expect(parseRetentionValue(value)).toBeNull();
  });

  it.each(["soon", "0d", "-3d", "", "90 parsecs", true, [], 0])("does not understand %j", (value) => {
    expect(parseRetentionValue(value)).toBeUndefined();
  });
});

describe("retentionCategory", () => {
  it("folds names to lower_snake_case", () => {
    expect(retentionCategory("Session State")).toBe("session_state");
    expect(retentionCategory("bug-fix")).toBe("bug_fix");
    expect(retentionCategory("`decision`")).toBe("decision");
    expect(retentionCategory("9lives")).toBeUndefined();
  });
});
