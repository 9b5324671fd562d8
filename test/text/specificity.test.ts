import { describe, expect, it } from "vitest";
import { isDomainTerm } from "../../src/text/domain-terms.js";
import { specificDetails } from "../../src/text/specificity.js";

describe("specificDetails", () => {
  it("finds nothing in vague text", () => {
    expect(specificDetails("Maybe the user likes something like that")).toEqual([]);
    expect(specificDetails("It might be good to think about it more")).toEqual([]);
  });

  it("finds entities, numbers and domain terms", () => {
    const kinds = (text: string) => specificDetails(text).map((detail) => detail.kind);
    expect(kinds("Check billing-api")).toContain("entity");
    expect(kinds("Retry 3 times")).toContain("number");
    expect(kinds("Something about the database")).toEqual(["domain_term"]);
    expect(kinds("Lives near Lisbon")).toContain("entity");
  });

  it("counts plural domain terms", () => {
    expect(isDomainTerm("databases")).toBe(true);
    expect(isDomainTerm("stuff")).toBe(false);
  });
});
