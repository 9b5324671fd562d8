/**
 * A conversation as hosts hand it over, read into `{ role, content }` messages for capture: a JSON
 * list of messages (Lucid's, Mem0's, OpenAI's), `{ messages: [...] }`, or JSON lines — of
 * messages, or of a host's transcript entries (Claude Code's `{ type, message: { role, content } }`).
 * Content given as blocks keeps its text blocks; a tool's result becomes a `tool` message (never
 * captured, but it marks where a turn's user text ends); tool calls and images are left out.
 * Claude Code's side-chain and meta entries are left out: never the user's words.
 *
 * @module
 */

import { LucidError } from "../errors.js";

/** A message as capture takes it (the SDK's `Message`, which edges do not import). */
export interface Message {
  role: string;
  content: string;
}

/**
 * @example
 * readTranscript('[{"role":"user","content":"I prefer tabs"}]'); // => [{ role: "user", content: "I prefer tabs" }]
 */
export function readTranscript(text: string): Message[] {
  const trimmed = text.trim();
  if (trimmed === "") return [];
  let parsed: unknown;
  try {
    parsed = JSON.parse(trimmed);
  } catch {
    parsed = undefined;
  }
  if (parsed !== undefined) {
    // One line of JSON lines parses whole: a lone message or transcript entry.
    const lone = typeof parsed === "object" && parsed !== null && ("role" in parsed || "message" in parsed);
    const list = Array.isArray(parsed)
      ? parsed
      : lone
        ? [parsed]
        : (parsed as { messages?: unknown })?.messages;
    if (!Array.isArray(list)) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        'A conversation is a JSON list of messages ({"role","content"}), {"messages":[...]}, or JSON lines.',
      );
    }
    return list.flatMap((entry, index) => toMessages(entry, `message ${index + 1}`));
  }
  return trimmed.split("\n").flatMap((line, index) => {
    if (line.trim() === "") return [];
    let entry: unknown;
    try {
      entry = JSON.parse(line);
    } catch {
      throw new LucidError("INVALID_ARGUMENT", `Line ${index + 1} of the conversation is not JSON.`);
    }
    return toMessages(entry, `line ${index + 1}`);
  });
}

/** The last turn: from the last message the user typed (not a tool result) to the end. */
export function lastTurn(messages: readonly Message[]): Message[] {
  for (let index = messages.length - 1; index >= 0; index--) {
    if (messages[index]?.role === "user") return messages.slice(index);
  }
  return [];
}

function toMessages(entry: unknown, where: string): Message[] {
  if (typeof entry !== "object" || entry === null) {
    throw new LucidError("INVALID_ARGUMENT", `The conversation's ${where} is not an object.`);
  }
  const record = entry as Record<string, unknown>;
  // Not the user speaking in this conversation: a subagent's side chain (the prompt the main agent
  // wrote for it is a "user" message there), or what the host injected itself (`isMeta`: command
  // output, caveats).
  if (record.isSidechain === true || record.isMeta === true) return [];
  // A transcript entry wraps its message; entries that are not messages (summaries, metadata) are skipped.
  const inner = typeof record.message === "object" && record.message !== null ? record.message : record;
  const { role, content } = inner as { role?: unknown; content?: unknown };
  if (typeof role !== "string") return [];
  if (typeof content === "string") return [{ role, content }];
  if (!Array.isArray(content)) return [];
  const texts: string[] = [];
  let toolResult = false;
  for (const block of content) {
    if (typeof block !== "object" || block === null) continue;
    const { type, text } = block as { type?: unknown; text?: unknown };
    if (type === "tool_result") toolResult = true;
    else if ((type === "text" || type === undefined) && typeof text === "string") texts.push(text);
  }
  if (toolResult) return [{ role: "tool", content: texts.join("\n") }];
  return texts.length === 0 ? [] : [{ role, content: texts.join("\n") }];
}
