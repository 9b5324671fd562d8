/**
 * What the optional LLM costs: calls and tokens per `add` with `infer: true` and per dream with the
 * judge, against a scripted model on loopback (a real HTTP server speaking OpenAI's Chat
 * Completions; no model runs). The scripted model's answers are fixed rules, so the counts are the
 * pipeline's: how many calls it makes, and how large its prompts are.
 *
 * - **add**: the first `--turns` turns of the first LoCoMo conversation (`../shared/data`, skipped
 *   when absent), two turns per `add`, in order, in one user's scope. The scripted extractor turns
 *   each message's sentences of six words or more into facts (at most three per message), so the
 *   memories near each new fact grow as a real store's do, and the judge sees the pairs the rules
 *   are unsure of (it answers `unsure`: the pipeline's cost, not a model's opinion).
 * - **dream**: every scope of our labelled dream corpus (`test/fixtures/dream/`), imported, then
 *   planned with the judge; the scripted judge confirms every item (`same` for a possible duplicate,
 *   `replaces` for a possible conflict).
 *
 * Tokens are the server's count, which here is the scripted server's estimate: ⌈characters / 4⌉ of
 * the request's messages and of the answer. A real tokenizer differs by model; the ratio of prompt to
 * answer does not.
 *
 *   npm run bench:llm [-- --turns 200]
 *
 * @module
 */

import { parseArgs } from "node:util";
import type { DreamPlan } from "../src/dream/plan.js";
import { type AddResult, openMemory } from "../src/index.js";
import { loadDreamCorpus } from "../test/fixtures/dream/corpus.js";
import { type LlmCall, type LlmReply, startFakeLlmServer } from "../test/helpers/fake-llm-server.js";
import { loadLocomo } from "./locomo-data.js";
import { locomoPath } from "./paths.js";
import { renderRunInfo, renderTable, runInfo, writeResults } from "./report.js";

const { values } = parseArgs({ options: { turns: { type: "string", default: "200" } } });
const TURNS = Number(values.turns);

/** Which part is measured: the add's judge answers `unsure`, the dream's confirms. */
let judging: "add" | "dream" = "add";

/** The scripted model: extraction by sentence, judging by the item's kind. */
function scripted(call: LlmCall): LlmReply {
  if (call.system.includes("extract durable memories")) {
    const section = /## New Messages\n([\s\S]*?)\n\n## /.exec(call.lastUser)?.[1] ?? "";
    const memory = section.split("\n").flatMap((line) => {
      const [, speaker = "someone", text = ""] = /^[^:(]*(?:\(([^)]*)\))?: (.*)$/.exec(line) ?? [];
      return text
        .split(/(?<=[.!?])\s+/)
        .filter((sentence) => sentence.split(/\s+/).length >= 6)
        .slice(0, 3)
        .map((sentence) => ({ text: `${speaker} said: ${sentence}`, importance: 0.5 }));
    });
    return { text: JSON.stringify({ memory }) };
  }
  if (call.system.includes("review a personal memory store")) {
    const items = call.lastUser.split("## Item ").slice(1);
    return {
      text: JSON.stringify({
        decisions: items.map((item) => {
          const number = Number.parseInt(item, 10);
          if (judging === "add") return { item: number, verdict: "unsure", reason: "scripted" };
          const duplicate = item.includes("Wording: asked for");
          return { item: number, verdict: duplicate ? "same" : "replaces", reason: "scripted" };
        }),
      }),
    };
  }
  return { status: 500, body: "unexpected prompt" };
}

interface Spend {
  calls: number;
  requests: number;
  inputTokens: number;
  outputTokens: number;
}

function summarise(spends: readonly Spend[]) {
  const sorted = (pick: (spend: Spend) => number) => spends.map(pick).sort((a, b) => a - b);
  const quantile = (list: number[], q: number) =>
    list[Math.min(list.length - 1, Math.floor(q * list.length))] ?? 0;
  const mean = (pick: (spend: Spend) => number) =>
    spends.length === 0 ? 0 : spends.reduce((sum, spend) => sum + pick(spend), 0) / spends.length;
  const input = sorted((spend) => spend.inputTokens);
  return {
    runs: spends.length,
    calls: spends.reduce((sum, spend) => sum + spend.calls, 0),
    requests: spends.reduce((sum, spend) => sum + spend.requests, 0),
    callsPerRun: mean((spend) => spend.calls),
    maxCalls: Math.max(0, ...spends.map((spend) => spend.calls)),
    inputMean: mean((spend) => spend.inputTokens),
    inputP50: quantile(input, 0.5),
    inputP95: quantile(input, 0.95),
    outputMean: mean((spend) => spend.outputTokens),
  };
}

const server = await startFakeLlmServer({ answer: scripted });
const llm = { provider: "openai-compatible" as const, baseURL: server.baseURL, model: "scripted" };
const info = runInfo();

async function measureAdds() {
  const data = loadLocomo(locomoPath(), { conversations: 1 });
  if (data === null) return null;
  const memory = await openMemory({ path: ":memory:", llm });
  const spends: Spend[] = [];
  const events = { ADD: 0, NONE: 0, UPDATE: 0 };
  const relations: Record<string, number> = {};
  let judged = 0;
  try {
    const turns = data.turns.slice(0, TURNS);
    for (let start = 0; start < turns.length; start += 2) {
      const pair = turns.slice(start, start + 2);
      const before = server.calls.length;
      const result: AddResult = await memory.add(
        pair.map((turn) => ({
          role: "user",
          name: turn.speaker,
          content: turn.text.slice(turn.speaker.length + 2),
        })),
        { userId: "locomo", infer: true, timestamp: pair[0]?.sessionTime },
      );
      judged += server.calls.slice(before).filter((call) => call.system.includes("review a personal")).length;
      for (const item of result.results) {
        events[item.event] += 1;
        if (item.relation !== undefined)
          relations[item.relation.kind] = (relations[item.relation.kind] ?? 0) + 1;
      }
      spends.push(result.llm ?? { calls: 0, requests: 0, inputTokens: 0, outputTokens: 0 });
    }
  } finally {
    await memory.close();
  }
  return {
    turns: Math.min(TURNS, data.turns.length),
    ...summarise(spends),
    judgeCalls: judged,
    events,
    relations,
  };
}

async function measureDreams() {
  judging = "dream";
  const scopes = loadDreamCorpus();
  const memory = await openMemory({ path: ":memory:", llm, policy: { secrets: { onAdd: "allow" } } });
  const spends: Spend[] = [];
  const outcomes = { confirmed: 0, rejected: 0, kept: 0 };
  let items = 0;
  let memories = 0;
  try {
    for (const scope of scopes) await memory.importMemories([...scope.records]);
    for (const scope of scopes) {
      memories += scope.records.length;
      const plan: DreamPlan = await memory.dream.plan(scope.scope, { now: scope.now, llm: true });
      const judge = plan.judge;
      items += (judge?.decisions.length ?? 0) + (judge?.unjudged ?? 0);
      for (const decision of judge?.decisions ?? []) outcomes[decision.outcome] += 1;
      spends.push(judge ?? { calls: 0, requests: 0, inputTokens: 0, outputTokens: 0 });
    }
  } finally {
    await memory.close();
  }
  return { scopes: scopes.length, memories, reviewItems: items, ...summarise(spends), outcomes };
}

const adds = await measureAdds();
const dreams = await measureDreams();
await server.close();

console.log(renderRunInfo(info));
if (adds === null) console.log(`\nadd: skipped, no LoCoMo data at ${locomoPath()}`);
else {
  console.log(
    `\nadd with infer: true — ${adds.turns} LoCoMo turns, ${adds.runs} adds of two turns each; events ${JSON.stringify(adds.events)}; relations ${JSON.stringify(adds.relations)}; judge calls ${adds.judgeCalls}; HTTP requests ${adds.requests}`,
  );
  console.log(
    renderTable(
      ["calls", "calls / add", "max calls", "input tokens / add (mean, p50, p95)", "output tokens / add"],
      [
        [
          adds.calls,
          adds.callsPerRun.toFixed(2),
          adds.maxCalls,
          `${adds.inputMean.toFixed(0)}, ${adds.inputP50}, ${adds.inputP95}`,
          adds.outputMean.toFixed(0),
        ],
      ],
    ),
  );
}
console.log(
  `\ndream with the judge — ${dreams.scopes} scopes, ${dreams.memories} memories, ${dreams.reviewItems} review items; outcomes ${JSON.stringify(dreams.outcomes)}; HTTP requests ${dreams.requests}`,
);
console.log(
  renderTable(
    ["calls", "calls / dream", "max calls", "input tokens / dream (mean, p50, p95)", "output tokens / dream"],
    [
      [
        dreams.calls,
        dreams.callsPerRun.toFixed(2),
        dreams.maxCalls,
        `${dreams.inputMean.toFixed(0)}, ${dreams.inputP50}, ${dreams.inputP95}`,
        dreams.outputMean.toFixed(0),
      ],
    ],
  ),
);
console.log(`\n${writeResults("llm-cost", info, { adds, dreams })}`);
