/**
 * A turn's words as Lucid reads them: the text parts a person or the model wrote, without the
 * parts OpenCode adds itself (`synthetic`: file contents, tool reminders; `ignored`), tool calls
 * or reasoning.
 *
 * @module
 */

/** The fields of an OpenCode message part this plugin reads (`@opencode-ai/sdk` `Part`). */
export interface Part {
  readonly type: string;
  readonly text?: string;
  readonly synthetic?: boolean;
  readonly ignored?: boolean;
}

/** One entry of `client.session.messages()`: the message and its parts. */
export interface SessionMessage {
  readonly info: { readonly id: string; readonly role: string };
  readonly parts: readonly Part[];
}

export interface TurnMessage {
  role: string;
  content: string;
}

/** The text a message's parts say, joined; "" when it has none. */
export function textOf(parts: readonly Part[]): string {
  return parts
    .filter((part) => part.type === "text" && typeof part.text === "string")
    .filter((part) => part.synthetic !== true && part.ignored !== true)
    .map((part) => (part.text as string).trim())
    .filter((text) => text !== "")
    .join("\n");
}

/**
 * The last turn of a session: its last user message that has text, and the assistant's text
 * after it. `id` is that user message's, so a turn is captured once however often the session
 * goes idle.
 */
export function lastTurn(
  messages: readonly SessionMessage[],
): { id: string; messages: TurnMessage[] } | undefined {
  for (let index = messages.length - 1; index >= 0; index--) {
    const message = messages[index];
    if (message === undefined || message.info.role !== "user") continue;
    const said = textOf(message.parts);
    if (said === "") continue;
    const replies = messages
      .slice(index + 1)
      .filter((each) => each.info.role === "assistant")
      .map((each) => textOf(each.parts))
      .filter((text) => text !== "");
    return {
      id: message.info.id,
      messages: [
        { role: "user", content: said },
        ...(replies.length === 0 ? [] : [{ role: "assistant", content: replies.join("\n\n") }]),
      ],
    };
  }
  return undefined;
}
