/**
 * `capture`: what a host calls after each turn with the turn's messages. With an LLM configured it
 * is `add` with `infer: true` (extraction, then the relation judge). Without one it is triage
 * (`triage.ts`): the user's durable sentences, each credential in them redacted whatever
 * `secrets.onAdd` says (nobody reviewed an automatic capture), in the third person, stored through
 * the same relation judge as `infer`, so a fact said again is not stored twice and a new value
 * replaces the one it supersedes. Chatter, questions, requests, tool output and the assistant's
 * words are reported as dropped, never stored; so is a sentence (or an extracted fact) that reads as
 * an instruction to the agent (a possible injection, `screen-instructions.ts`).
 *
 * Session counting for the auto-dream gate is the composition root's (`sdk/`), beside this.
 *
 * @module
 */

import type { MemoryContext } from "../core/context.js";
import { checkUnitInterval } from "../core/inputs.js";
import type { ScopeOptions } from "../core/scope.js";
import { secretsGuardOf } from "../core/secrets-guard.js";
import { LucidError } from "../errors.js";
import { toThirdPerson } from "../text/person.js";
import { addInferred, storeFacts } from "./add-inferred.js";
import { readAddRequest } from "./add-request.js";
import { dropInstructions } from "./screen-instructions.js";
import { DEFAULT_IMPORTANCE_THRESHOLD, type TriageDropReason, triage } from "./triage.js";
import type { AddResult, AddResultItem, Message } from "./types.js";

export interface CaptureOptions extends ScopeOptions {
  /** Facts under this importance are not kept (triage). Default 0.6. */
  importanceThreshold?: number;
  /** Use the LLM's extraction when one is configured. Default true; false forces triage. */
  infer?: boolean;
  /** Stored with every captured memory (`source`, `session_id`…). */
  metadata?: Record<string, unknown>;
}

export interface CaptureDrop {
  /** The sentence (at most 120 characters, credentials redacted). */
  readonly text: string;
  readonly reason: TriageDropReason;
}

export interface CaptureResult {
  /** `triage` (no LLM) or `infer` (the LLM's extraction). */
  readonly mode: "triage" | "infer";
  /** What each kept fact did: ADD, NONE (already known) or UPDATE. */
  readonly results: AddResultItem[];
  /** Triage only: what was not kept, and why. */
  readonly dropped: CaptureDrop[];
  readonly llm?: AddResult["llm"];
}

const SHOWN_DROP_CHARS = 120;

/**
 * @example
 * await captureTurn(context, [{ role: "user", content: "Thanks! I prefer window seats." }], { userId: "ana" });
 * // => { mode: "triage", results: [{ memory: "User prefers window seats.", event: "ADD", … }], dropped: [{ text: "Thanks!", reason: "chatter" }] }
 */
export async function captureTurn(
  context: MemoryContext,
  messages: readonly Message[],
  options: CaptureOptions = {},
): Promise<CaptureResult> {
  const conversation = readMessages(messages);
  const threshold = checkUnitInterval(
    options.importanceThreshold ?? DEFAULT_IMPORTANCE_THRESHOLD,
    "importanceThreshold",
  );
  const { importanceThreshold: _, infer, ...addOptions } = options;
  const guard = secretsGuardOf(context);
  // Redacted before anything keeps them, under every `secrets.onAdd`: a capture is automatic, so
  // "reject" must not fail a turn and "allow" (a choice for what a person adds) does not apply.
  const spoken = conversation
    .filter((message) => message.role === "user" || message.role === "assistant")
    .map((message) => ({ ...message, content: guard.scanner.redact(message.content).text }));

  if (context.llm !== undefined && infer !== false) {
    if (!spoken.some((message) => message.role === "user"))
      return { mode: "infer", results: [], dropped: [] };
    const added = await addInferred(context, readAddRequest(context, spoken, { ...addOptions, infer: true }));
    const dropped = (added.dropped ?? []).map(({ text, reason }) => ({ text, reason }));
    return { mode: "infer", results: added.results, dropped, ...(added.llm ? { llm: added.llm } : {}) };
  }

  const triaged = triage(conversation, context.policy.categories, threshold);
  const screened = dropInstructions(triaged.kept, (fact) => fact.text);
  const kept = screened.kept;
  const shownDrops: CaptureDrop[] = [
    ...triaged.dropped.map((drop) => ({ text: drop.text, reason: drop.reason })),
    ...screened.dropped.map((drop) => ({ text: drop.text, reason: drop.reason })),
  ].map((drop) => ({ text: clip(guard.scanner.redact(drop.text).text), reason: drop.reason }));
  if (kept.length === 0) return { mode: "triage", results: [], dropped: shownDrops };

  // The log keeps what was said (screened by the request); the facts are the kept sentences.
  const request = readAddRequest(context, spoken, addOptions);
  const results = await storeFacts(
    context,
    request,
    kept.map((fact) => ({
      text: toThirdPerson(guard.scanner.redact(fact.text).text).text,
      attributedTo: "user" as const,
      // The importance is the category's: kept there, so a policy change reaches these memories.
      ...(fact.category === null ? {} : { category: fact.category }),
      related: [],
    })),
  );
  return { mode: "triage", results, dropped: shownDrops };
}

function readMessages(messages: readonly Message[]): Message[] {
  if (!Array.isArray(messages)) {
    throw new LucidError("INVALID_ARGUMENT", "capture needs a list of messages ({ role, content }).");
  }
  return messages.map((message, index) => {
    if (typeof message !== "object" || message === null || typeof message.content !== "string") {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `capture: message ${index} must be an object with a string content (flatten content blocks to text first).`,
      );
    }
    const role = typeof message.role === "string" ? message.role.toLowerCase() : "user";
    return { role, content: message.content, ...(message.name ? { name: message.name } : {}) };
  });
}

const clip = (text: string) =>
  text.length <= SHOWN_DROP_CHARS ? text : `${text.slice(0, SHOWN_DROP_CHARS - 1).trimEnd()}…`;
