import { describe, expect, it } from "vitest";
import { findSecrets } from "../../src/secrets/index.js";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";

// 32 KB inputs built to make a careless pattern backtrack: repeated keywords with no value,
// openers with no closer, runs with no boundary. Patterns here are linear or bounded, so these
// finish quickly; the test asserts the answers (bench/secrets.ts times them).
const SIZE = 32 * 1024;
const fill = (unit: string) => unit.repeat(Math.ceil(SIZE / unit.length)).slice(0, SIZE);

const fake = createFakeSecrets(3);
const github = fake["github-pat"]?.() ?? "";

describe("adversarial 32 KB inputs", () => {
  it.each([
    ["password=", fill("password=")],
    ["password is ", fill("password is ")],
    ["key:", fill("key:")],
    ["a= with a keyword", `token ${fill("a=")}`],
    ["aws ", fill("aws ")],
    ["twilio ", fill("twilio ")],
    ["PEM headers with no END", fill("-----BEGIN RSA PRIVATE KEY-----\n")],
    ["escaped PEM headers with no body", fill("-----BEGIN RSA PRIVATE KEY-----\\n")],
    ["escaped line breaks after a header", `-----BEGIN PRIVATE KEY-----${fill("\\r\\n")}`],
    ["ops_eyJ with no body", fill("ops_eyJ+")],
    ["dp.st. config names", fill("dp.st.prd.")],
    ["one long base64 run", fill("A1b2C3d4")],
    ["sk- then one long word", `sk-${fill("Ab3")}`],
    ["dotted eyJ parts", fill("eyJabcdefghij.")],
    ["postgres://a:", fill("postgres://a:")],
    ["Bearer ", fill("Bearer ")],
    ["ghp_", fill("ghp_")],
    ["MNO dots", fill("MTIzNDU2Nzg5MDEyMzQ1Njc4.")],
    ["non-ASCII", fill("пароль: é ")],
  ])("%s: no findings", (_, text) => {
    expect(findSecrets(text)).toEqual([]);
  });

  it("still finds a real secret after 32 KB of bait", () => {
    const text = `${fill("password=")} then ${github}`;
    expect(findSecrets(text).map((finding) => text.slice(finding.start, finding.end))).toEqual([github]);
  });

  it("finds a secret in the middle of a long, otherwise clean text", () => {
    const prose = fill("The quick brown fox jumps over the lazy dog. ");
    const text = `${prose}Deploy with ${github} before Friday. ${prose}`;
    expect(findSecrets(text).map((finding) => finding.kind)).toEqual(["github-pat"]);
  });
});
