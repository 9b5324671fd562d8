/**
 * Capture's triage without a model (Mem0's memory-triage gates, `specs/mem0.md` §A.5, made
 * deterministic): which sentences of a conversation are durable facts worth keeping. Only what the
 * user said counts (an assistant's restatement is not evidence; tool output is not a statement).
 * Each sentence of a user message is read by its grammar, with wink-nlp's tags:
 *
 * - questions (a question mark, a question word or an inverted auxiliary first, or "I wonder
 *   whether…"), chatter (nothing about anything: no noun, name or number once greetings and thanks
 *   are set aside), code and tool output are dropped;
 * - a standing instruction ("always…", "never…", "from now on…") is a rule; any other imperative
 *   ("run the tests", "please book it") is a request for this turn and dropped;
 * - hedged or hypothetical statements ("maybe", "might", "if…", "thinking about…") and the state of
 *   the moment ("right now", "yesterday", "the build is running") are dropped;
 * - what remains is a statement, filed under a category by what it is about (a decision, a liking,
 *   who the user is, a person, a setting, a tool, a project); its importance is the category's, and
 *   a statement under the importance threshold is dropped (one about nothing the categories know
 *   has Mem0's 0.5, under the default 0.6).
 *
 * The cue words below name kinds of statement (liking, deciding, kinship), not phrasings of
 * particular facts; the sentence model does the rest.
 *
 * @module
 */

import type { CategoryTable } from "../policy/categories.js";
import { taggedSentences } from "../text/sentences.js";
import { redactStatedPassword } from "./stated-password.js";
import { segments } from "./triage-segments.js";
import { readSentence } from "./triage-sentence.js";

export type TriageDropReason =
  | "not_user"
  | "code"
  | "tool_output"
  | "question"
  | "chatter"
  | "request"
  | "hypothetical"
  | "transient"
  | "below_threshold"
  /** Reads as an instruction to the agent (`screen-instructions.ts`): never stored by capture. */
  | "injection";

export interface TriageKept {
  /** The sentence as the user wrote it, leading fillers ("oh, and") removed. */
  readonly text: string;
  /** The sentence as found in the message. */
  readonly source: string;
  readonly category: string | null;
  readonly importance: number;
  /** Index of the message it came from. */
  readonly message: number;
}

export interface TriageDropped {
  readonly text: string;
  readonly reason: TriageDropReason;
  readonly message: number;
}

export interface TriageResult {
  readonly kept: TriageKept[];
  readonly dropped: TriageDropped[];
}

export interface TriageMessage {
  readonly role: string;
  readonly content: string;
}

/** Mem0's triage knob: facts under this importance are not stored. */
export const DEFAULT_IMPORTANCE_THRESHOLD = 0.6;
const UNKNOWN_IMPORTANCE = 0.5;

/**
 * @example
 * triage([{ role: "user", content: "Thanks! My sister Ana is a nurse in Porto. Can you book a table?" }], DEFAULT_CATEGORIES);
 * // => { kept: [{ text: "My sister Ana is a nurse in Porto.", category: "relationship", … }],
 * //      dropped: [{ text: "Thanks!", reason: "chatter" }, { text: "Can you book a table?", reason: "question" }] }
 */
export function triage(
  messages: readonly TriageMessage[],
  categories: CategoryTable,
  threshold = DEFAULT_IMPORTANCE_THRESHOLD,
): TriageResult {
  const kept: TriageKept[] = [];
  const dropped: TriageDropped[] = [];
  for (const [message, { role, content }] of messages.entries()) {
    if (role !== "user") {
      if (content.trim() !== "") dropped.push({ text: content, reason: "not_user", message });
      continue;
    }
    for (const segment of segments(content)) {
      if (segment.kind !== "prose") {
        dropped.push({ text: segment.text, reason: segment.kind, message });
        continue;
      }
      for (const sentence of taggedSentences(segment.text)) {
        const verdict = readSentence(sentence);
        if ("reason" in verdict) {
          dropped.push({ text: sentence.text, reason: verdict.reason, message });
          continue;
        }
        const importance =
          verdict.category === null
            ? UNKNOWN_IMPORTANCE
            : (categories[verdict.category]?.importance ?? UNKNOWN_IMPORTANCE);
        if (importance < threshold) {
          dropped.push({ text: sentence.text, reason: "below_threshold", message });
          continue;
        }
        kept.push({
          text: redactStatedPassword(verdict.text, sentence),
          source: sentence.text,
          category: verdict.category,
          importance,
          message,
        });
      }
    }
  }
  return { kept, dropped };
}
