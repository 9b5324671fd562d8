/**
 * Dream with a judge, through the SDK against a real loopback OpenAI-compatible server: the LLM's
 * verdicts move the review tier (confirmed into actions, rejected out, the rest kept), inside the
 * rules; every verdict is in the plan with the model, the prompt hash and the reason; the plan
 * survives JSON; it applies and undoes like any plan; a failing model leaves the review as it was.
 */

import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { parsePlan } from "../../src/dream/parse-plan.js";
import { renderReport } from "../../src/dream/render-report.js";
import { type Memory, openMemory } from "../../src/index.js";
import { type LlmCall, type LlmReply, useFakeLlmServer } from "../helpers/fake-llm-server.js";
import { tempFiles } from "../helpers/temp-dir.js";

/** Verdict by a word of the item, and the merged wording offered for `same`. */
let wording = "Deploys happen every Friday at noon, around 12";

function answer(call: LlmCall): LlmReply {
  if (!call.system.includes("review a personal memory store")) return { status: 500, body: "unexpected" };
  const items = call.lastUser.split("## Item ").slice(1);
  return {
    text: JSON.stringify({
      decisions: items.map((item) => {
        const number = Number.parseInt(item, 10);
        if (/deploy/i.test(item))
          return { item: number, verdict: "same", reason: "both say Friday noon deploys", wording };
        if (/Skoda/.test(item)) return { item: number, verdict: "replaces", reason: "the car was replaced" };
        if (/Slack/.test(item))
          return { item: number, verdict: "distinct", reason: "chat tools can coexist" };
        return { item: number, verdict: "unsure", reason: "cannot tell" };
      }),
    }),
  };
}

const server = useFakeLlmServer({ answer });
const files = tempFiles("llm-judge");
const opened: Memory[] = [];

async function seeded(userId: string, options: Parameters<typeof openMemory>[0] = {}): Promise<Memory> {
  const memory = await openMemory({
    path: files.path(),
    llm: { provider: "openai-compatible", baseURL: server.baseURL, model: "judge", maxRetries: 0 },
    ...options,
  });
  opened.push(memory);
  for (const text of [
    // A sure merge by the rules: the judge never sees it.
    "Releases go out on Tuesdays",
    "The release train leaves every Tuesday",
    "The deploy runs every Friday at noon",
    "Deploys happen on Fridays around 12",
    "The family drives a Skoda Octavia",
    "We sold the Skoda and switched to a Toyota",
    "The team uses Slack for chat",
    "The team moved its chat to Microsoft Teams",
  ])
    await memory.add(text, { userId });
  return memory;
}

afterAll(async () => {
  await Promise.all(opened.map((memory) => memory.close()));
});

beforeEach(() => {
  server.calls.length = 0;
  server.queue.length = 0;
  wording = "Deploys happen every Friday at noon, around 12";
});

describe("dream with an LLM judge", () => {
  it("leaves the plan alone without llm, and puts the pairs it is unsure of in review", async () => {
    const memory = await seeded("ana");
    const plan = await memory.dream.plan({ userId: "ana" });
    expect(plan.judge).toBeUndefined();
    expect(server.calls).toHaveLength(0);
    expect(plan.review.map((item) => item.kind).sort()).toEqual([
      "possible-conflict",
      "possible-conflict",
      "possible-duplicate",
    ]);
  });

  it("confirms, rejects and keeps review items by the model's verdicts, recording each", async () => {
    const memory = await seeded("bea");
    const before = await memory.dream.plan({ userId: "bea" });
    const plan = await memory.dream.plan({ userId: "bea" }, { llm: true });

    expect(server.calls).toHaveLength(1);
    expect(server.calls[0]?.lastUser).toContain("Deploys happen on Fridays around 12");
    expect(server.calls[0]?.lastUser).not.toContain("Releases go out on Tuesdays");
    expect(plan.review).toHaveLength(0);
    const merge = plan.actions.find((action) => action.kind === "merge" && action.why.rule === "llm-judge");
    expect(merge).toMatchObject({
      kind: "merge",
      text: "Deploys happen every Friday at noon, around 12",
      why: { rule: "llm-judge", detail: "both say Friday noon deploys" },
    });
    expect(merge?.why.evidence).toMatchObject({
      model: "judge",
      verdict: "same",
      promptHash: expect.stringMatching(/^[0-9a-f]{16}$/),
    });
    const conflict = plan.actions.find((action) => action.kind === "conflict");
    expect(conflict?.ids).toEqual(
      before.review.find((item) => item.proposal.kind === "conflict" && item.why.detail.includes("switched"))
        ?.proposal.ids ?? conflict?.ids,
    );
    expect(plan.judge).toMatchObject({
      model: "openai-compatible:judge",
      calls: 1,
      failures: 0,
      unjudged: 0,
      errors: [],
    });
    expect(plan.judge?.decisions.map((decision) => [decision.verdict, decision.outcome]).sort()).toEqual([
      ["distinct", "rejected"],
      ["replaces", "confirmed"],
      ["same", "confirmed"],
    ]);
    expect(plan.stats.merges).toBe(before.stats.merges + 1);
    expect(plan.stats.conflicts).toBe(before.stats.conflicts + 1);
    expect(renderReport(plan)).toMatch(
      /Judged by openai-compatible:judge \(1 call, \d+ \+ \d+ tokens\): 2 confirmed, 1 rejected, 0 kept/,
    );

    // The plan is data: it survives JSON and applies like any other; undo restores both memories.
    const copy = parsePlan(JSON.parse(JSON.stringify(plan)));
    expect(copy.judge?.decisions).toEqual(plan.judge?.decisions);
    const result = await memory.dream.apply(copy);
    expect(result.counts.merged).toBe(2);
    const texts = (await memory.getAll({ userId: "bea" })).results.map((item) => item.memory);
    expect(texts).toContain("Deploys happen every Friday at noon, around 12");
    expect(texts).not.toContain("Deploys happen on Fridays around 12");
    await memory.dream.undo(result.runId as string);
    const restored = (await memory.getAll({ userId: "bea" })).results.map((item) => item.memory);
    expect(restored).toEqual(
      expect.arrayContaining(["The deploy runs every Friday at noon", "Deploys happen on Fridays around 12"]),
    );
  });

  it("keeps the rules' wording of a merge when the model's drops a detail", async () => {
    const memory = await seeded("cid");
    wording = "Deploys happen weekly at noon";
    const plan = await memory.dream.plan({ userId: "cid" }, { llm: true });
    const merge = plan.actions.find((action) => action.kind === "merge" && action.why.rule === "llm-judge");
    const before = (await memory.dream.plan({ userId: "cid" })).review.find(
      (item) => item.proposal.kind === "merge",
    );
    expect(merge?.kind).toBe("merge");
    expect(merge?.kind === "merge" && merge.text).toBe(
      before?.proposal.kind === "merge" && before.proposal.text,
    );
    const decision = plan.judge?.decisions.find((each) => each.verdict === "same");
    expect(decision).toMatchObject({ wording: "rules", wordingNote: "the wording drops 12" });
    expect(merge?.kind === "merge" && merge.text).not.toBe("Deploys happen weekly at noon");
  });

  it.each([
    ["changes a number", "Deploys happen every Friday at noon, around 12:45", "drops 12"],
    [
      "adds content no memory says",
      "Deploys happen every Friday at noon around 12 by Mallory",
      "adds mallory",
    ],
  ])("keeps the rules' wording when the model's %s", async (_case, given, note) => {
    const memory = await seeded(`w-${given.length}`);
    wording = given;
    const plan = await memory.dream.plan({ userId: `w-${given.length}` }, { llm: true });
    const merge = plan.actions.find((action) => action.kind === "merge" && action.why.rule === "llm-judge");
    expect(merge?.kind).toBe("merge");
    expect(merge?.kind === "merge" ? merge.text : "").not.toBe(given);
    const decision = plan.judge?.decisions.find((each) => each.verdict === "same");
    expect(decision?.wording).toBe("rules");
    expect(decision?.wordingNote).toContain(note);
  });

  it("applies confirmed merges with --auto too, when the Memory dreams with its judge (dream.llm)", async () => {
    const memory = await seeded("dan", { dreamLlm: true });
    const result = await memory.dream.auto({ userId: "dan" });
    // The rules' merge and the one the model confirmed.
    expect(result.counts.merged).toBe(2);
    // The conflict the model confirmed waits for a person, as every conflict does under --auto.
    expect(result.counts.conflictsSkipped).toBeGreaterThanOrEqual(1);
    expect(server.calls).toHaveLength(1);
  });

  it("leaves the review tier as it was when the model fails, and says why", async () => {
    const memory = await seeded("eve");
    server.queue.push({ status: 500, body: "boom" });
    const plan = await memory.dream.plan({ userId: "eve" }, { llm: true });
    expect(plan.review).toHaveLength(3);
    expect(plan.judge).toMatchObject({ calls: 1, failures: 1, unjudged: 3, decisions: [] });
    expect(plan.judge?.errors[0]).toMatch(/^LLM_UNAVAILABLE: /);
    expect((await memory.status()).llm.usage.dream.failures).toBeGreaterThanOrEqual(1);
  });

  it("refuses llm: true without an LLM", async () => {
    const memory = await openMemory({ path: ":memory:" });
    opened.push(memory);
    await memory.add("Releases go out on Tuesdays", { userId: "fay" });
    await expect(memory.dream.plan({ userId: "fay" }, { llm: true })).rejects.toMatchObject({
      code: "LLM_NOT_CONFIGURED",
    });
  });
});
