/**
 * The LLM's judgement of pairs of memories the rules are unsure of — dream's review tier, and an
 * extracted fact beside a stored one in `add` with `infer: true`. The rules decide which pairs are
 * asked about and what a verdict may do; the model only says, with a reason, whether the two state
 * the same fact, whether the newer replaces the older, or whether both can hold.
 *
 * Pairs go in batches (one call each); every verdict carries the model and a hash of the exact
 * prompt, so a decision can be traced to what was asked. A failed call leaves its pairs unjudged:
 * the caller keeps them for a person.
 *
 * @module
 */

import { createHash } from "node:crypto";
import { isLucidError } from "../errors.js";
import type { JsonOutput } from "../llm/llm.js";
import type { LlmRun } from "./llm-run.js";

export const PAIR_VERDICTS = ["same", "replaces", "distinct", "unsure"] as const;
/**
 * `same`: one fact, said twice; `replaces`: one attribute with incompatible values, the newer (B)
 * is current; `distinct`: both can be true together; `unsure`: the texts do not tell.
 */
export type PairVerdict = (typeof PAIR_VERDICTS)[number];

export interface PairToJudge {
  /** The caller's key for the pair, returned with its verdict. */
  readonly key: string;
  /** The older memory. */
  readonly a: { readonly text: string; readonly at: string };
  /** The newer memory (or the fact being added). */
  readonly b: { readonly text: string; readonly at: string };
  /** What the rules saw, shown to the model as context. */
  readonly hint: string;
  /** Ask for the merged wording when the verdict is `same`. */
  readonly wantsWording: boolean;
}

export interface PairJudgement {
  readonly key: string;
  readonly verdict: PairVerdict;
  readonly reason: string;
  /** The merged text the model proposed, when asked and the verdict is `same`. */
  readonly wording?: string;
  readonly model: string;
  /**
   * SHA-256 of the system prompt and message as sent to the client (redacted), first 16 hex digits.
   * A client adds the JSON schema to the system prompt for servers without structured outputs; the
   * hash is of Lucid's prompt, the same whichever server answers.
   */
  readonly promptHash: string;
}

export interface PairJudging {
  readonly judgements: readonly PairJudgement[];
  /** Pairs no verdict came back for: the call failed, the budget ran out, or the model skipped them. */
  readonly unjudged: readonly string[];
  /** Why calls failed (LucidError codes and messages), in order. */
  readonly failures: readonly { readonly code: string; readonly message: string }[];
}

/** Pairs per call: enough to amortise the prompt, few enough that the answer stays short. */
export const PAIRS_PER_CALL = 8;
/**
 * Failures after which the rest is not asked: a server that timed out, cannot be reached, refuses
 * the key or the run's budget will not do better for the next batch, and a dream must not spend
 * its lease waiting on it. An answer that was not the JSON asked for may be a one-off: the next
 * batch is still asked.
 */
const GIVE_UP: ReadonlySet<string> = new Set([
  "LLM_TIMEOUT",
  "LLM_UNAVAILABLE",
  "LLM_REJECTED",
  "LLM_BUDGET_EXCEEDED",
]);
/** Longest text of a memory shown to the model: memories are short; a long one is cut, not sent whole. */
const MAX_TEXT_CHARS = 1_000;

const SYSTEM = `You review a personal memory store for an AI assistant. Each item shows two memories about the same person or project: A (older) and B (newer), with what an automatic check noticed.
For each item decide:
- "same": A and B state the same fact; keeping one loses nothing.
- "replaces": A and B give incompatible values for the same thing (a changed preference, address, setting, plan); B is the current one.
- "distinct": both can be true at once, or they are about different things.
- "unsure": the texts do not tell.
Differences in numbers, dates, names, places, environments or people mean "distinct" or "replaces", never "same".
When an item asks for wording and the verdict is "same", give one sentence that keeps every detail of both.
Give a short reason for each verdict. Answer only with JSON.`;

interface Answer {
  readonly decisions: readonly {
    readonly item: number;
    readonly verdict: PairVerdict;
    readonly reason: string;
    readonly wording?: string;
  }[];
}

const ANSWER: JsonOutput<Answer> = {
  name: "pair_verdicts",
  schema: {
    type: "object",
    properties: {
      decisions: {
        type: "array",
        items: {
          type: "object",
          properties: {
            item: { type: "integer" },
            verdict: { type: "string", enum: [...PAIR_VERDICTS] },
            reason: { type: "string" },
            wording: { type: "string" },
          },
          required: ["item", "verdict", "reason"],
        },
      },
    },
    required: ["decisions"],
  },
  parse(value) {
    const decisions = (value as { decisions?: unknown } | null)?.decisions;
    if (!Array.isArray(decisions)) throw new Error("`decisions` must be an array");
    return {
      decisions: decisions.map((raw, index) => {
        const each = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
        const item = typeof each.item === "string" ? Number(each.item) : each.item;
        if (typeof item !== "number" || !Number.isInteger(item))
          throw new Error(`decisions[${index}].item must be an item number`);
        if (!(PAIR_VERDICTS as readonly unknown[]).includes(each.verdict))
          throw new Error(`decisions[${index}].verdict must be one of ${PAIR_VERDICTS.join(", ")}`);
        const wording =
          typeof each.wording === "string" && each.wording.trim() !== "" ? each.wording.trim() : undefined;
        return {
          item,
          verdict: each.verdict as PairVerdict,
          reason: typeof each.reason === "string" ? each.reason.trim().slice(0, 500) : "",
          ...(wording === undefined ? {} : { wording }),
        };
      }),
    };
  },
};

/**
 * Asks the run's model about each pair, {@link PAIRS_PER_CALL} per call, while its budget lasts.
 *
 * @example
 * const { judgements, unjudged } = await judgePairs(run, [
 *   { key: "m1:m2", a: { text: "Releases go out on Tuesdays", at }, b: { text: "The release train leaves every Tuesday", at }, hint: "close in meaning (0.71)", wantsWording: true },
 * ]);
 * judgements[0]?.verdict; // => "same"
 */
export async function judgePairs(run: LlmRun, pairs: readonly PairToJudge[]): Promise<PairJudging> {
  const judgements: PairJudgement[] = [];
  const unjudged: string[] = [];
  const failures: { code: string; message: string }[] = [];
  let gaveUp = false;
  for (let start = 0; start < pairs.length; start += PAIRS_PER_CALL) {
    const batch = pairs.slice(start, start + PAIRS_PER_CALL);
    if (gaveUp || run.remaining === 0) {
      unjudged.push(...batch.map((pair) => pair.key));
      continue;
    }
    const message = renderBatch(batch, run.redact);
    const promptHash = createHash("sha256")
      .update(SYSTEM)
      .update("\u0000")
      .update(message)
      .digest("hex")
      .slice(0, 16);
    try {
      const answer = await run.complete({
        system: SYSTEM,
        messages: [{ role: "user", content: message }],
        json: ANSWER,
        maxTokens: 200 + 160 * batch.length,
        temperature: 0,
      });
      const byItem = new Map((answer.json?.decisions ?? []).map((decision) => [decision.item, decision]));
      for (const [index, pair] of batch.entries()) {
        const decision = byItem.get(index + 1);
        if (decision === undefined) {
          unjudged.push(pair.key);
          continue;
        }
        judgements.push({
          key: pair.key,
          verdict: decision.verdict,
          reason: decision.reason,
          ...(pair.wantsWording && decision.verdict === "same" && decision.wording !== undefined
            ? { wording: decision.wording }
            : {}),
          model: answer.model,
          promptHash,
        });
      }
    } catch (error) {
      if (!isLucidError(error) || !error.code.startsWith("LLM_")) throw error;
      failures.push({ code: error.code, message: error.message });
      unjudged.push(...batch.map((pair) => pair.key));
      gaveUp = GIVE_UP.has(error.code);
    }
  }
  return { judgements, unjudged, failures };
}

/** The batch's message; each text redacted before it is cut (a cut credential is not recognised). */
function renderBatch(batch: readonly PairToJudge[], redact: (text: string) => string): string {
  const clip = (text: string) => {
    const flat = redact(text).replace(/\s+/g, " ").trim();
    return flat.length > MAX_TEXT_CHARS ? `${flat.slice(0, MAX_TEXT_CHARS)}…` : flat;
  };
  const items = batch.map((pair, index) =>
    [
      `## Item ${index + 1}`,
      `A (${pair.a.at.slice(0, 10)}): ${clip(pair.a.text)}`,
      `B (${pair.b.at.slice(0, 10)}): ${clip(pair.b.text)}`,
      `Noticed: ${clip(pair.hint)}`,
      ...(pair.wantsWording ? ["Wording: asked for, if the verdict is same."] : []),
    ].join("\n"),
  );
  return `${items.join("\n\n")}\n\nAnswer as {"decisions":[{"item":1,"verdict":"same|replaces|distinct|unsure","reason":"…","wording":"…"}]}, one decision per item.`;
}
