import { describe, expect, it } from "vitest";
import { analyseLowConfidence } from "../../src/dream/analyse/low-confidence.js";
import { resolvePolicy } from "../../src/policy/resolve-policy.js";
import { snapshotOf } from "./make-snapshot.js";

const policy = await resolvePolicy();
const lowConfidence = (text: string, confidence: number | undefined) =>
  analyseLowConfidence(
    snapshotOf([{ text, metadata: confidence === undefined ? {} : { confidence } }]),
    policy,
  );

describe("analyseLowConfidence", () => {
  it("deletes a vague memory under the confidence bar", () => {
    const [action] = lowConfidence("Maybe the user likes something like that", 0.2);
    expect(action).toMatchObject({
      kind: "delete",
      reason: "low_confidence",
      why: { evidence: { confidence: 0.2 } },
    });
  });

  it.each([
    ["User might use billing-api", "identifier"],
    ["User may have lived in Lisbon", "proper noun"],
    ["Possibly 3 retries", "number"],
    ["User perhaps prefers tabs", "domain term"],
    ["Something in ~/code/notes.md", "path"],
  ])("keeps %j: it names a %s", (text) => {
    expect(lowConfidence(text, 0.1)).toEqual([]);
  });

  it("keeps vague memories at or above the bar, or without a confidence", () => {
    expect(lowConfidence("Maybe the user likes something like that", 0.3)).toEqual([]);
    expect(lowConfidence("Maybe the user likes something like that", undefined)).toEqual([]);
  });
});
