import { describe, expect, it } from "vitest";
import { allowedBy } from "../../src/secrets/allow-list.js";
import {
  base62Crc32,
  bech32Encode,
  crc32,
  hasBase62Crc32,
  isBech32,
  toBase62,
} from "../../src/secrets/checksums.js";
import { charClasses, shannonEntropy } from "../../src/secrets/entropy.js";
import { fieldWords, secretField } from "../../src/secrets/field-names.js";
import { createPrefilter } from "../../src/secrets/prefilter.js";
import { looksLikePassword, looksLikeToken } from "../../src/secrets/value-shape.js";

describe("entropy", () => {
  it("measures bits per character", () => {
    expect(shannonEntropy("")).toBe(0);
    expect(shannonEntropy("aaaa")).toBe(0);
    expect(shannonEntropy("abcd")).toBe(2);
    expect(shannonEntropy("0123456789abcdef")).toBe(4);
  });

  it("counts character classes, treating - _ . as joiners", () => {
    expect(charClasses("hunter2!x")).toEqual({ lower: true, upper: false, digit: true, symbol: true });
    expect(charClasses("snake_case-v.x")).toEqual({ lower: true, upper: false, digit: false, symbol: false });
  });
});

describe("checksums", () => {
  it("computes zlib's CRC-32", () => {
    expect(crc32("123456789")).toBe(0xcbf43926);
    expect(crc32("")).toBe(0);
  });

  it("encodes base62 with digits, upper case, lower case", () => {
    expect(toBase62(0, 6)).toBe("000000");
    expect(toBase62(61, 1)).toBe("z");
    expect(toBase62(62, 2)).toBe("10");
    expect(toBase62(0xffffffff, 6)).toBe("4gfFC3");
  });

  it("verifies the 30 + 6 token checksum", () => {
    const body = "FAKE0123QwErTy456UiOp789AsDfGh";
    expect(hasBase62Crc32(`ghp_${body}${base62Crc32(body)}`, "ghp_")).toBe(true);
    expect(hasBase62Crc32(`ghp_${body}000000`, "ghp_")).toBe(false);
    expect(hasBase62Crc32(`ghp_${body}`, "ghp_")).toBe(false);
  });

  it("round-trips bech32 in either case", () => {
    const encoded = bech32Encode(
      "age-secret-key-",
      Array.from({ length: 52 }, (_, index) => index % 32),
    );
    expect(isBech32(encoded)).toBe(true);
    expect(isBech32(encoded.toUpperCase())).toBe(true);
    expect(isBech32(`${encoded.slice(0, -1)}${encoded.endsWith("q") ? "p" : "q"}`)).toBe(false);
    expect(isBech32("no-separator")).toBe(false);
  });
});

describe("field names", () => {
  it("splits on separators and camelCase humps", () => {
    expect(fieldWords("dbPassword")).toEqual(["db", "password"]);
    expect(fieldWords("--AWS_SECRET-key.v2")).toEqual(["aws", "secret", "key", "v2"]);
    expect(fieldWords("APIKey")).toEqual(["apikey"]);
  });

  it.each([
    ["DB_PASSWORD", "password"],
    ["new_password", "password"],
    ["PASSWORD_PROD", "password"],
    ["stripeApiKey", "secret"],
    ["client-secret", "secret"],
    ["X-API-Key", "secret"],
    ["_authToken", "secret"],
    ["API_KEY_V2", "secret"],
    ["access_key_id", undefined],
    ["token_url", undefined],
    ["password_hash", undefined],
    ["cache_key", undefined],
    ["public_key", undefined],
    ["max_tokens", undefined],
    ["next_page_token", undefined],
    ["monkey", undefined],
    ["keyboard", undefined],
    ["passThroughOnException", undefined],
    ["TOKEN_STRINGS", undefined],
  ])("%s → %s", (name, expected) => {
    expect(secretField(name)).toBe(expected);
  });
});

describe("value shapes", () => {
  it.each([
    ["3f9Kq7ZpL2mX8vBn", true],
    ["fa4ec0de0123456789abcdef", true],
    ["QwErTyUiOpAsDfGhJkLzXcVb", true],
    ["production", false],
    ["authorization_required", false],
    ["aaaa1111bbbb", false],
    ["short1", false],
  ])("looksLikeToken(%s) = %s", (value, expected) => {
    expect(looksLikeToken(value)).toBe(expected);
  });

  it.each([
    ["hunter2!x", true],
    ["Tr0ub4dor&3", true],
    ["cOrReCtHoRsE", true],
    ["letmein", false],
    ["String", false],
    ["123456", false],
    ["x1", false],
  ])("looksLikePassword(%s) = %s", (value, expected) => {
    expect(looksLikePassword(value)).toBe(expected);
  });
});

describe("allow-rules", () => {
  it.each([
    ["sk-...", false, "placeholder-marker"],
    ["<YOUR_API_KEY>", false, "placeholder-marker"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${…} placeholder is the input.
    ["${OPENAI_API_KEY}", false, "placeholder-marker"],
    ["****", false, "placeholder-marker"],
    ["AKIAIOSFODNN7EXAMPLE", false, "placeholder-word"],
    ["your-token-here", false, "placeholder-word"],
    ["process.env.STRIPE_KEY", false, "env-reference"],
    ["$DB_PASSWORD", false, "env-reference"],
    ["pk_live_51Hq3kFAKEz8wQx2mN7vB4tY", true, "public-key-prefix"],
    ["phc_FAKE3pDEarHiNfV0lvtEJwJt2xuOd61", true, "public-key-prefix"],
    ["ghp_aaaaaaaaaaaaaaaa", false, "low-variety"],
    ["sk-1234567890abcdef", false, "low-variety"],
    ["None", true, "not-a-value"],
    ["123e4567-e89b-42d3-a456-426614174000", true, "uuid"],
    ["v2.14.3-beta.1", true, "version-string"],
    ["2024-05-01T10:00:00Z", true, "date-time"],
    ["5f4dcc3b5aa765d61d8327deb882cf99.jpg", true, "file-name"],
    ["https://auth.acme.dev/token", true, "url-or-path"],
    ["this.options.token", true, "code-expression"],
    ["[A-Za-z0-9._~+/-]+=*", true, "regex-source"],
    ["Access-Control-Expose-Headers", true, "identifier"],
  ])("%s → %s", (value, generic, id) => {
    expect(allowedBy(value, generic)?.id).toBe(id);
  });

  it("applies generic-only rules to generic rules only", () => {
    expect(allowedBy("123e4567-e89b-42d3-a456-426614174000", false)).toBeUndefined();
  });

  it("lets random tokens through", () => {
    expect(allowedBy("FAKE3pDEarHiNfV0lvtEJwJt2xuOd61WEPsh", true)).toBeUndefined();
  });

  it("does not read a crypt hash as a $VAR reference", () => {
    expect(allowedBy("$apr1$FAKEx9a2$u8Zr1NwqP0s7Yb5cT2dLk/", false)).toBeUndefined();
  });
});

describe("prefilter", () => {
  it("flags the rules whose keywords occur, and rules without keywords always", () => {
    const prefilter = createPrefilter([["ghp_"], ["password"], []]);
    expect([...prefilter.rulesToRun("my Password is …")]).toEqual([0, 1, 1]);
    expect([...prefilter.rulesToRun("nothing here")]).toEqual([0, 0, 1]);
  });

  it("sees keywords that are prefixes of, or overlap, a longer keyword", () => {
    const prefilter = createPrefilter([["sk-"], ["sk-ant-"], ["key"], ["accountkey="]]);
    expect([...prefilter.rulesToRun("SK-ANT-x")]).toEqual([1, 1, 0, 0]);
    expect([...prefilter.rulesToRun("AccountKey=…")]).toEqual([0, 0, 1, 1]);
  });
});
