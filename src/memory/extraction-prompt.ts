/**
 * The one extraction call of `add` with `infer: true`, after Mem0's V3 pipeline
 * (`specs/mem0.md` §C.3): the conversation so far, the memories already stored near it (under
 * small integer ids, so a model cannot cite an id that does not exist), the new messages and the
 * dates; the answer is a list of self-contained facts, each with a category and an importance.
 * The wording is ours.
 *
 * @module
 */

import type { CompleteRequest, JsonOutput } from "../llm/llm.js";

export interface ExtractedFact {
  readonly text: string;
  /** Who the fact is about or came from: Mem0's `attributed_to`. */
  readonly attributedTo?: "user" | "assistant";
  /** One of the policy's categories, when the model chose one. */
  readonly category?: string;
  /** 0–1, how much the fact matters. */
  readonly importance?: number;
  /** Integer ids of the stored memories the model says it relates to. */
  readonly related: readonly string[];
}

export interface ExtractionInput {
  /** Earlier messages of the session, oldest first (`role: content`). */
  readonly history: readonly string[];
  /** The stored memories near the new messages, in the order their integer ids are given. */
  readonly existing: readonly string[];
  readonly messages: readonly string[];
  /** The policy's category names. */
  readonly categories: readonly string[];
  /** When the conversation happened (`YYYY-MM-DD`) and today. */
  readonly observedOn: string;
  readonly today: string;
  /** Memories about an agent rather than a user. */
  readonly aboutAgent: boolean;
  readonly customInstructions: string | undefined;
}

/** Longest fact list one answer may hold: a conversation turn yields a handful. */
export const MAX_FACTS = 30;

const SYSTEM = `You extract durable memories from a conversation for an AI assistant's long-term memory.
Write each memory as one short, self-contained sentence in the third person ("The user prefers dark roast coffee"), with names, numbers, dates and places exactly as said. Resolve relative dates ("tomorrow", "last week") against the observation date.
Keep what will still matter in later conversations: preferences, decisions, plans, facts about people, projects, places and tools, rules the user sets. Leave out greetings, small talk, questions without an answer, the assistant's own suggestions unless the user accepted them, tool output and anything temporary.
Never copy credentials, passwords, API keys or tokens into a memory.
If a new message changes something an existing memory says, write the new state as its own memory (for example "The user now lives in Lisbon"); list the ids of the existing memories it relates to.
If nothing is worth remembering, answer with an empty list. Answer only with JSON.`;

const AGENT_SUFFIX = `
These memories are about the assistant (the agent) itself: its role, its instructions, its working style and what it has learned, not about the user.`;

/**
 * @example
 * const request = extractionRequest({ history: [], existing: ["The user lives in Porto"], messages: ["user: I moved to Lisbon"], … });
 */
export function extractionRequest(input: ExtractionInput): CompleteRequest<readonly ExtractedFact[]> {
  const sections = [
    `## Last ${input.history.length} Messages\n${input.history.length === 0 ? "(none)" : input.history.join("\n")}`,
    `## Existing Memories\n${
      input.existing.length === 0
        ? "(none)"
        : input.existing.map((text, id) => JSON.stringify({ id: String(id), text })).join("\n")
    }`,
    `## New Messages\n${input.messages.join("\n")}`,
    `## Categories\n${input.categories.join(", ")}`,
    `## Observation Date\n${input.observedOn}`,
    `## Current Date\n${input.today}`,
    ...(input.customInstructions === undefined
      ? []
      : [`## Custom Instructions\n${input.customInstructions}`]),
    'Answer as {"memory":[{"text":"…","attributed_to":"user","category":"…","importance":0.8,"linked_memory_ids":["0"]}]}.',
  ];
  return {
    system: input.aboutAgent ? SYSTEM + AGENT_SUFFIX : SYSTEM,
    messages: [{ role: "user", content: sections.join("\n\n") }],
    json: extractionOutput(input.categories, input.existing.length),
    maxTokens: 2_000,
    temperature: 0,
  };
}

/** The answer's schema, and its check: what the model returns is never trusted. */
function extractionOutput(
  categories: readonly string[],
  existing: number,
): JsonOutput<readonly ExtractedFact[]> {
  return {
    name: "extracted_memories",
    schema: {
      type: "object",
      properties: {
        memory: {
          type: "array",
          items: {
            type: "object",
            properties: {
              text: { type: "string" },
              attributed_to: { type: "string", enum: ["user", "assistant"] },
              category: { type: "string", enum: [...categories] },
              importance: { type: "number", minimum: 0, maximum: 1 },
              linked_memory_ids: { type: "array", items: { type: "string" } },
            },
            required: ["text"],
          },
        },
      },
      required: ["memory"],
    },
    parse(value) {
      const list = (value as { memory?: unknown } | null)?.memory;
      if (!Array.isArray(list)) throw new Error("`memory` must be an array of facts");
      return list.slice(0, MAX_FACTS).flatMap((raw): ExtractedFact[] => {
        // A bare string is a fact too (lenient, as Mem0's fallback parser is).
        const each = (typeof raw === "string" ? { text: raw } : raw) as Record<string, unknown> | null;
        if (typeof each !== "object" || each === null || typeof each.text !== "string") return [];
        const text = each.text.trim();
        if (text === "") return [];
        const importance = typeof each.importance === "number" ? each.importance : Number.NaN;
        const related = Array.isArray(each.linked_memory_ids) ? each.linked_memory_ids : [];
        return [
          {
            text,
            ...(each.attributed_to === "user" || each.attributed_to === "assistant"
              ? { attributedTo: each.attributed_to }
              : {}),
            ...(typeof each.category === "string" && categories.includes(each.category)
              ? { category: each.category }
              : {}),
            ...(importance >= 0 && importance <= 1 ? { importance } : {}),
            // Only ids that were given: a model that invents one cites nothing.
            related: related
              .map((id) => String(id))
              .filter((id) => /^\d+$/.test(id) && Number(id) < existing),
          },
        ];
      });
    },
  };
}
