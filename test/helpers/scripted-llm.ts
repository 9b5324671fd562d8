/**
 * A scripted model for the fake LLM server: it extracts the facts a test set for a phrase of the
 * new messages, and judges each review item by the first rule whose pattern its text matches. What
 * the CLI and MCP tests of the LLM features script; no model runs.
 *
 * @module
 */

import type { LlmCall, LlmReply } from "./fake-llm-server.js";

export interface JudgeRule {
  readonly pattern: RegExp;
  readonly verdict: "same" | "replaces" | "distinct" | "unsure";
  readonly reason: string;
  readonly wording?: string;
}

export interface Script {
  /** Facts to extract, by a phrase of the `## New Messages` section (earlier messages never match). */
  readonly facts: Readonly<Record<string, readonly unknown[]>>;
  /** Verdicts by pattern; an item no rule matches is `unsure`. */
  readonly judge: readonly JudgeRule[];
}

/** The pairs the rules put in the review tier with the default local embedder, and verdicts for them. */
export const REVIEW_PAIRS = {
  deploy: ["The deploy runs every Friday at noon", "Deploys happen on Fridays around 12"],
  car: ["The family drives a Skoda Octavia", "We sold the Skoda and switched to a Toyota"],
  chat: ["The team uses Slack for chat", "The team moved its chat to Microsoft Teams"],
} as const;

/** A wording of the deploy pair that keeps every detail of both and adds none. */
export const DEPLOY_MERGED = "Deploys happen every Friday at noon, around 12";

export const REVIEW_VERDICTS: readonly JudgeRule[] = [
  { pattern: /deploy/i, verdict: "same", reason: "both say Friday noon deploys", wording: DEPLOY_MERGED },
  { pattern: /Skoda/, verdict: "replaces", reason: "the car was replaced" },
  { pattern: /Slack/, verdict: "distinct", reason: "chat tools can coexist" },
];

/**
 * An `answer` for `startFakeLlmServer`, reading the script at each call (tests change it).
 *
 * @example
 * let script: Script = { facts: {}, judge: REVIEW_VERDICTS };
 * const server = useFakeLlmServer({ answer: scriptedAnswer(() => script) });
 */
export function scriptedAnswer(script: () => Script): (call: LlmCall) => LlmReply {
  return (call) => {
    const { facts, judge } = script();
    if (call.system.includes("extract durable memories")) {
      const said = /## New Messages\n([\s\S]*?)\n## /.exec(call.lastUser)?.[1] ?? "";
      const key = Object.keys(facts).find((phrase) => said.includes(phrase));
      return { text: JSON.stringify({ memory: key === undefined ? [] : facts[key] }) };
    }
    if (call.system.includes("review a personal memory store")) {
      const items = call.lastUser.split("## Item ").slice(1);
      return {
        text: JSON.stringify({
          decisions: items.map((item) => {
            const number = Number.parseInt(item, 10);
            const rule = judge.find((each) => each.pattern.test(item));
            if (rule === undefined) return { item: number, verdict: "unsure", reason: "cannot tell" };
            const { pattern: _pattern, ...verdict } = rule;
            return { item: number, ...verdict };
          }),
        }),
      };
    }
    return { status: 500, body: "unexpected prompt" };
  };
}
