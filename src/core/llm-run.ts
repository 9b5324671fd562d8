/**
 * One run's use of the configured LLM (an add, a dream, a sleep sweep): every text the run sends
 * goes through the secrets detector first, whatever `policy.secrets.onAdd` says — a credential
 * that may be kept in the store is still never sent out; calls past `maxCallsPerRun` are refused
 * with `LLM_BUDGET_EXCEEDED`; and each call's tokens are added to the store's totals.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import type { CompleteRequest, CompleteResult, Llm } from "../llm/llm.js";
import type { MemoryContext } from "./context.js";
import { emptySpend, type LlmFeature, type LlmSpend, recordLlmUsage } from "./llm-usage.js";
import { secretsGuardOf } from "./secrets-guard.js";
import { warnOnce } from "./warn-once.js";

/** The LLM a context was given, and what limits its use. */
export interface LlmBinding {
  readonly model: Llm;
  /** Most calls one run may make. */
  readonly maxCallsPerRun: number;
  /** Mem0's custom instructions, appended to the extraction prompt. */
  readonly customInstructions?: string;
}

export const DEFAULT_MAX_CALLS_PER_RUN = 20;

export interface LlmRun {
  /** The model's id (`openai-compatible:gpt-4o-mini`), recorded with every decision. */
  readonly model: string;
  readonly customInstructions: string | undefined;
  /** Calls this run may still make. */
  readonly remaining: number;
  /** What the run has spent so far. */
  readonly spent: Readonly<LlmSpend>;
  /**
   * `text` with its credentials redacted, as `complete` sends it: for a caller that cuts a text
   * (a cut credential is no longer recognised) or hashes the prompt it sends.
   */
  redact(text: string): string;
  /** One call, its texts redacted first; throws `LLM_BUDGET_EXCEEDED` past the cap. */
  complete<T>(request: CompleteRequest<T>): Promise<CompleteResult<T>>;
}

/**
 * A run on the context's LLM, or undefined when none is configured.
 *
 * @example
 * const run = startLlmRun(context, "dream");
 * const answer = await run?.complete({ system, messages, maxTokens: 400, temperature: 0 });
 */
export function startLlmRun(context: MemoryContext, feature: LlmFeature): LlmRun | undefined {
  const binding = context.llm;
  if (binding === undefined) return undefined;
  const { model: llm, maxCallsPerRun } = binding;
  const scanner = secretsGuardOf(context).scanner;
  const redact = (text: string) => scanner.redact(text).text;
  const spent = emptySpend();
  return {
    model: llm.id,
    customInstructions: binding.customInstructions,
    get remaining() {
      return Math.max(0, maxCallsPerRun - spent.calls);
    },
    spent,
    redact,
    async complete<T>(request: CompleteRequest<T>): Promise<CompleteResult<T>> {
      if (spent.calls >= maxCallsPerRun) {
        throw new LucidError(
          "LLM_BUDGET_EXCEEDED",
          `This ${feature} has made ${spent.calls} LLM calls, llm.maxCallsPerRun. Raise it in lucid.config.json if the run needs more.`,
          { details: { feature, calls: spent.calls, maxCallsPerRun } },
        );
      }
      const redacted: CompleteRequest<T> = {
        ...request,
        system: redact(request.system),
        messages: request.messages.map((message) => ({
          role: message.role,
          content: redact(message.content),
        })),
      };
      const call = { ...emptySpend(), calls: 1 };
      try {
        const result = await llm.complete(redacted);
        call.requests = result.requests ?? 1;
        call.inputTokens = result.usage.inputTokens;
        call.outputTokens = result.usage.outputTokens;
        return result;
      } catch (error) {
        call.failures = 1;
        const attempts = error instanceof LucidError ? error.details?.attempts : undefined;
        call.requests = typeof attempts === "number" ? attempts : 1;
        throw error;
      } finally {
        add(spent, call);
        await record(context, feature, call, llm.id);
      }
    },
  };
}

function add(total: LlmSpend, call: LlmSpend): void {
  total.calls += call.calls;
  total.requests += call.requests;
  total.failures += call.failures;
  total.inputTokens += call.inputTokens;
  total.outputTokens += call.outputTokens;
}

/**
 * Keeps the call in the store's totals. A store that cannot take the write (read-only, busy, gone)
 * must not turn the call's answer, or its own failure, into another error: the call still counts
 * in the run, and the process is told once.
 */
async function record(
  context: MemoryContext,
  feature: LlmFeature,
  call: LlmSpend,
  model: string,
): Promise<void> {
  try {
    await recordLlmUsage(context.store, feature, call, { model, at: context.clock.now().toISOString() });
  } catch (error) {
    if (error instanceof LucidError && error.code === "STORE_READ_ONLY") return;
    warnOnce(
      "llm-usage",
      `Lucid could not keep an LLM call in the store's usage totals (${error instanceof Error ? error.message : String(error)}); \`lucid status\` will count fewer calls.`,
      { code: "LUCID_LLM_USAGE" },
    );
  }
}
