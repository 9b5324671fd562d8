import { describe, expect, it } from "vitest";
import { hasTimeAnchor, withTimeAnchor } from "../../src/text/time-anchor.js";

describe("hasTimeAnchor", () => {
  it.each([
    "As of 2026-03-01, billing-api runs on Fly.io",
    "Deployed on 2026-03-01",
    "Moved in March 2024",
    "Since 12 March the team deploys daily",
    "Launch planned for Q3 2026",
    "Team grew in 2025",
    "Meeting on 3/14/2026",
    "Freeze starts Dec 15th",
  ])("finds an anchor in %j", (text) => {
    expect(hasTimeAnchor(text)).toBe(true);
  });

  it.each(["billing-api runs on Fly.io", "Node 20 is required", "Port 2020 is open", "User may join later"])(
    "finds none in %j",
    (text) => {
      expect(hasTimeAnchor(text)).toBe(false);
    },
  );
});

describe("withTimeAnchor", () => {
  it("prefixes the anchor and lower-cases an ordinary first word", () => {
    expect(withTimeAnchor("User is migrating billing-api", "2026-03-01")).toBe(
      "As of 2026-03-01, the user is migrating billing-api",
    );
    expect(withTimeAnchor("The deploy freeze is on", "2026-03-01")).toBe(
      "As of 2026-03-01, the deploy freeze is on",
    );
    expect(withTimeAnchor("Priya leads the search team", "2026-03-01")).toBe(
      "As of 2026-03-01, Priya leads the search team",
    );
    expect(withTimeAnchor("AWS costs are over budget", "2026-03-01")).toBe(
      "As of 2026-03-01, AWS costs are over budget",
    );
  });
});
