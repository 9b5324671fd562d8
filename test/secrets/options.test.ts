import { describe, expect, it } from "vitest";
import { isLucidError } from "../../src/errors.js";
import {
  createSecretScanner,
  findSecrets,
  redact,
  type SecretScannerOptions,
} from "../../src/secrets/index.js";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";

const fake = createFakeSecrets(7);
const github = fake["github-pat"]?.() ?? "";
const jwt = fake.jwt?.() ?? "";

function errorOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("extra patterns", () => {
  const options: SecretScannerOptions = {
    extraPatterns: [
      { id: "acme-key", kind: "acme-key", pattern: "acme_[a-z0-9]{24}" },
      { id: "acme-pin", kind: "acme-pin", pattern: "ACME PIN (?<value>\\d{6})", flags: "i" },
    ],
  };

  it("extend the catalogue instead of replacing it", () => {
    const text = `deploy acme_0123456789abcdefghijklmn with ${github}`;
    expect(findSecrets(text, options).map((f) => f.kind)).toEqual(["acme-key", "github-pat"]);
  });

  it("report the value group when there is one, with high confidence", () => {
    const text = "the acme pin 493817 opens the door";
    expect(findSecrets(text, options)).toEqual([
      { kind: "acme-pin", ruleId: "acme-pin", start: 13, end: 19, labelStart: 4, confidence: "high" },
    ]);
    expect(redact(text, options).text).toBe("the acme pin [REDACTED:acme-pin] opens the door");
  });

  it("survive patterns that can match the empty string", () => {
    const scanner = createSecretScanner({ extraPatterns: [{ id: "maybe", kind: "maybe", pattern: "z*" }] });
    expect(scanner.find("abc zz d")).toEqual([
      { kind: "maybe", ruleId: "maybe", start: 4, end: 6, labelStart: 4, confidence: "high" },
    ]);
  });
});

describe("disabled rules", () => {
  it("switch a rule off by id, letting the next rule claim the value", () => {
    const text = `Authorization: Bearer ${jwt}`;
    expect(findSecrets(text).map((f) => f.ruleId)).toEqual(["jwt"]);
    expect(findSecrets(text, { disabledRules: ["jwt"] }).map((f) => f.ruleId)).toEqual(["bearer-token"]);
    expect(findSecrets(text, { disabledRules: ["jwt", "bearer-token"] })).toEqual([]);
  });

  it("can switch off an extra pattern", () => {
    const scanner = createSecretScanner({
      extraPatterns: [{ id: "acme-key", kind: "acme-key", pattern: "acme_[a-z0-9]{4}" }],
      disabledRules: ["acme-key"],
    });
    expect(scanner.find("acme_abcd")).toEqual([]);
  });
});

describe("invalid options", () => {
  it.each([
    [
      "a bad regular expression",
      { extraPatterns: [{ id: "broken", kind: "x", pattern: "([a-z" }] },
      "broken",
    ],
    ["bad flags", { extraPatterns: [{ id: "flags", kind: "x", pattern: "a", flags: "q" }] }, "flags"],
    ["an unknown disabled rule", { disabledRules: ["no-such-rule"] }, "no-such-rule"],
    ["a duplicate id", { extraPatterns: [{ id: "jwt", kind: "x", pattern: "a" }] }, "jwt"],
    [
      "a kind that cannot be a label",
      { extraPatterns: [{ id: "spaces", kind: "has space", pattern: "a" }] },
      "spaces",
    ],
    ["an empty pattern", { extraPatterns: [{ id: "empty", kind: "x", pattern: "" }] }, "empty"],
  ] as const)("reject %s with INVALID_ARGUMENT naming it", (_, options, name) => {
    const error = errorOf(() => createSecretScanner(options as SecretScannerOptions));
    expect(isLucidError(error, "INVALID_ARGUMENT")).toBe(true);
    expect((error as Error).message).toContain(name);
  });

  it("rejects non-array lists and non-string input", () => {
    expect(
      isLucidError(
        errorOf(() => createSecretScanner({ disabledRules: "jwt" as never })),
        "INVALID_ARGUMENT",
      ),
    ).toBe(true);
    expect(
      isLucidError(
        errorOf(() => findSecrets(42 as never)),
        "INVALID_ARGUMENT",
      ),
    ).toBe(true);
  });
});

describe("compilation", () => {
  it("happens once per options object", () => {
    let reads = 0;
    const options = {
      get extraPatterns() {
        reads += 1;
        return [{ id: "acme-key", kind: "acme-key", pattern: "acme_[a-z0-9]{4}" }];
      },
    };
    findSecrets("acme_abcd", options);
    redact("acme_abcd", options);
    findSecrets("nothing here", options);
    expect(reads).toBe(1);
  });

  it("gives a scanner that is reusable across texts", () => {
    const scanner = createSecretScanner();
    expect(scanner.find(`one ${github}`)).toHaveLength(1);
    expect(scanner.find("nothing")).toEqual([]);
    expect(scanner.find(`two ${github}`)).toHaveLength(1);
  });
});
