import { describe, expect, it } from "vitest";
import { type Memory, type MemoryOptions, openMemory } from "../../src/index.js";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";
import { scriptedEmbedder } from "../helpers/scripted-embedder.js";
import { everythingStored } from "../helpers/stored-text.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("secrets");
const fake = createFakeSecrets(7);
const token = fake["github-pat"]?.() ?? "";
const stripe = fake["stripe-live-key"]?.() ?? "";

async function open(policy?: MemoryOptions["policy"]) {
  const embedder = scriptedEmbedder(2, (text) => [1, text.length]);
  const path = files.path();
  const memory: Memory = await openMemory({ path, embedder, policy });
  return { memory, path, embedder };
}

describe("secrets on add, update and import", () => {
  it("redacts by default: stored text, keyword index, embedding input, history and messages never hold the value", async () => {
    const { memory, path, embedder } = await open();
    const text = `Deploy with token ${token} before Friday`;
    const { results } = await memory.add([{ role: "user", content: text }], { userId: "alice" });
    const [result] = results;
    expect(result?.memory).toBe("Deploy with token [REDACTED:github-pat] before Friday");
    expect(result?.redactions).toEqual([{ kind: "github-pat", start: 18, end: 18 + token.length }]);
    expect(JSON.stringify(results)).not.toContain(token);

    await memory.update(result?.id ?? "", `Rotated: new key ${stripe} is live`);
    const imported = await memory.importMemories([
      { id: "imp-1", text: `old key was ${stripe}`, user_id: "alice" },
    ]);
    expect(imported.items[0]?.redactions).toEqual([
      { kind: "stripe-secret-key", start: 12, end: 12 + stripe.length },
    ]);

    const keyword = await memory.search(token, {
      filters: { user_id: "alice" },
      mode: "keyword",
      threshold: 0,
    });
    expect(keyword.results).toEqual([]);
    const stored = everythingStored(path);
    expect(stored).not.toContain(token);
    expect(stored).not.toContain(stripe);
    expect(stored).toContain("[REDACTED:stripe-secret-key]");
    expect(embedder.calls.flat().join("\n")).not.toContain(token);
    expect(embedder.calls.flat().join("\n")).not.toContain(stripe);
    await memory.close();
  });

  it("rejects under onAdd reject, naming the kind but never the value, and writes nothing", async () => {
    const { memory, path } = await open({ secrets: { onAdd: "reject" } });
    const error = await memory
      .add(`my token is ${token}`, { userId: "alice" })
      .catch((caught: unknown) => caught);
    expect(error).toMatchObject({ code: "SECRET_REJECTED", details: { kinds: ["github-pat"] } });
    expect(
      JSON.stringify({ message: (error as Error).message, details: (error as { details: unknown }).details }),
    ).not.toContain(token);
    expect(everythingStored(path)).not.toContain(token);
    expect((await memory.getAll({ filters: { user_id: "alice" } })).total).toBe(0);
    await memory.add("The Stripe key lives in 1Password", { userId: "alice" });
    await memory.close();
  });

  it("stores the text as given under onAdd allow", async () => {
    const { memory } = await open({ secrets: { onAdd: "allow" } });
    const { results } = await memory.add(`token ${token}`, { userId: "alice" });
    expect(results[0]?.memory).toBe(`token ${token}`);
    await memory.close();
  });

  it("extends the catalogue with extra patterns and honours disabled rules", async () => {
    const { memory } = await open({
      secrets: {
        extraPatterns: [{ id: "acme-badge", kind: "acme-badge", pattern: "ACME-[0-9]{6}" }],
        disabledRules: ["github-pat"],
      },
    });
    const { results } = await memory.add(`Badge ACME-123456 and ${token}`, { userId: "alice" });
    expect(results[0]?.memory).toBe(`Badge [REDACTED:acme-badge] and ${token}`);
    await memory.close();
  });

  it("refuses a bad secrets policy", async () => {
    await expect(open({ secrets: { onAdd: "shrug" as "allow" } })).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    await expect(
      open({ secrets: { extraPatterns: [{ id: "x", kind: "x", pattern: "(" }] } }),
    ).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });
});
