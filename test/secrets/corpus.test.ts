import { describe, expect, it } from "vitest";
import { BUILTIN_RULES, findSecrets, redact } from "../../src/secrets/index.js";
import { buildSecretCorpus } from "../fixtures/secrets/generate.js";

const { positives, negatives } = buildSecretCorpus();
const label = (text: string) => JSON.stringify(text.length > 90 ? `${text.slice(0, 90)}…` : text);

describe("secret corpus", () => {
  it("covers every kind at least twice, with at least 60 hard negatives", () => {
    const perKind = new Map<string, number>();
    for (const planted of positives) perKind.set(planted.kind, (perKind.get(planted.kind) ?? 0) + 1);
    for (const kind of new Set(BUILTIN_RULES.map((rule) => rule.kind))) {
      expect(perKind.get(kind) ?? 0, kind).toBeGreaterThanOrEqual(2);
    }
    expect(negatives.length).toBeGreaterThanOrEqual(60);
  });

  it("plants values that look fake to a human", () => {
    // PINs, one-time codes, card numbers and recovery keys are digits only: no marker fits, and no push-protection
    // scanner looks for them (card numbers are generated on a test-card prefix, 4000).
    const digitsOnly = new Set(["pin", "one-time-code", "payment-card", "recovery-key"]);
    for (const planted of positives.filter(({ kind }) => !digitsOnly.has(kind))) {
      // Free-form values (passwords, URL passwords, bearer/basic/generic values) start "Fake"/"FAKE";
      // formats with a fixed alphabet carry FAKE or fa4ec0de inside.
      // JWTs and Basic credentials carry it encoded, in one of their base64 parts.
      const decoded = planted.value.split(".").map((part) => Buffer.from(part, "base64").toString("latin1"));
      const visible = [planted.value, ...decoded].some((text) => /fake|fa4ec0de/i.test(text));
      expect(visible, planted.template).toBe(true);
    }
  });

  describe.each(positives.map((planted) => [label(planted.text), planted] as const))(
    "finds %s",
    (_, planted) => {
      it(`as exactly one ${planted.kind} spanning the planted value`, () => {
        const findings = findSecrets(planted.text).map(({ kind, start, end }) => ({ kind, start, end }));
        expect(findings).toEqual([{ kind: planted.kind, start: planted.start, end: planted.end }]);
      });
    },
  );

  it.each(negatives.map((negative) => [label(negative.text), negative] as const))(
    "ignores %s",
    (_, negative) => {
      expect(findSecrets(negative.text), negative.why).toEqual([]);
    },
  );

  it("exercises every built-in rule", () => {
    const used = new Set(
      positives.flatMap((planted) => findSecrets(planted.text).map((finding) => finding.ruleId)),
    );
    expect(BUILTIN_RULES.map((rule) => rule.id).filter((id) => !used.has(id))).toEqual([]);
  });
});

describe("redaction on the corpus", () => {
  it("never leaves a planted value in the output, and labels it with its kind", () => {
    for (const planted of positives) {
      const result = redact(planted.text);
      expect(result.text, planted.template).not.toContain(planted.value);
      expect(result.text).toBe(
        `${planted.text.slice(0, planted.start)}[REDACTED:${planted.kind}]${planted.text.slice(planted.end)}`,
      );
    }
  });

  it("produces text that scans clean", () => {
    for (const planted of positives)
      expect(findSecrets(redact(planted.text).text), planted.template).toEqual([]);
  });

  it("redacts several secrets in one text, keeping the prose between them", () => {
    const [first, second, third] = [positives[0], positives[40], positives[120]];
    if (first === undefined || second === undefined || third === undefined)
      throw new Error("corpus too small");
    const text = [first.text, second.text, third.text].join("\n---\n");
    const result = redact(text);
    expect(result.findings.map((finding) => finding.kind)).toEqual([first.kind, second.kind, third.kind]);
    for (const planted of [first, second, third]) expect(result.text).not.toContain(planted.value);
    expect(result.text.split("\n---\n")).toHaveLength(3);
  });

  it("leaves negatives untouched", () => {
    for (const negative of negatives)
      expect(redact(negative.text)).toEqual({ text: negative.text, findings: [] });
  });
});
