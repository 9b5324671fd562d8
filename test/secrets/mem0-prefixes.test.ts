import { describe, expect, it } from "vitest";
import { findSecrets } from "../../src/secrets/index.js";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";

// Mem0's ten credential prefixes (DEFAULT_CREDENTIAL_PATTERNS, prompt text only in Mem0): each is
// found where it starts a real secret and ignored where it is only a substring or a placeholder.
const fake = createFakeSecrets(10);
const make = (name: string) => fake[name]?.() ?? "";

const kinds = (text: string) => findSecrets(text).map((finding) => finding.kind);

describe("Mem0's ten prefixes", () => {
  it.each([
    ["sk-", `OPENAI_API_KEY=${make("openai-api-key")}`, "openai-api-key"],
    ["m0-", `MEM0_API_KEY=${make("mem0-api-key")}`, "mem0-api-key"],
    ["ghp_", `token ${make("github-pat")}`, "github-pat"],
    ["AKIA", `key id ${make("aws-access-key-id")}`, "aws-access-key-id"],
    ["ak_", `vendor key ${make("ak-api-key")}`, "ak-api-key"],
    ["Bearer ", `Authorization: Bearer ${make("bearer-token")}`, "bearer-token"],
    ["bot\\d+:AA", `bot ${make("telegram-bot-token")}`, "telegram-bot-token"],
    ["password=", "password=Tr0ub4dor&3", "password"],
    ["token=", `token=${make("generic-secret")}`, "generic-secret"],
    ["secret=", `secret=${make("generic-secret")}`, "generic-secret"],
  ])("%s starts a real secret", (_, text, kind) => {
    expect(kinds(text)).toEqual([kind]);
  });

  it.each([
    ["sk-", "the task-runner is risk-averse about desk-booking"],
    ["m0-", "Mem0 runs on M2; m0-m1 migration done"],
    ["ghp_", "ghp_example is what the docs show"],
    ["AKIA", "AKIA is the prefix of a long-term key id"],
    ["ak_", "ak_total_count went up"],
    ["Bearer ", "Bearer tokens expire after an hour"],
    ["bot\\d+:AA", "bot42:AA batteries are in the drawer"],
    ["password=", "password=changeme"],
    ["token=", "token=your-token-here"],
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a literal ${…} placeholder is the input.
    ["secret=", "secret=${APP_SECRET}"],
  ])("%s alone or as a placeholder is not a secret", (_, text) => {
    expect(kinds(text)).toEqual([]);
  });
});
