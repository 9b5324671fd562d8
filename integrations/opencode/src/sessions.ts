/**
 * What the plugin remembers about each OpenCode session while the host runs: the user's latest
 * message (the query for recall, and the fallback for capture), the recall block already fetched
 * for it (OpenCode asks for the system prompt again at every step of a turn: tool calls make
 * several), the last turn captured (a session goes idle after every turn, and again on resume),
 * and whether it is a subagent's (the `task` tool's child sessions: they read memories, but store
 * none and are not sessions of the user's).
 *
 * @module
 */

export interface Prompt {
  /** The user message's id. */
  readonly id: string;
  readonly text: string;
}

interface SessionState {
  prompt?: Prompt;
  recall?: { readonly promptId: string; readonly block: string };
  capturedId?: string;
  /** Settles once the session is known to be a subagent's or not. */
  kind: Promise<"user" | "subagent">;
  subagent: boolean;
}

export class Sessions {
  readonly #states = new Map<string, SessionState>();

  /**
   * Keeps the user's message; true when it is the session's first (the caller counts the session).
   * `kindOf` is asked once per session.
   */
  prompted(sessionID: string, prompt: Prompt, kindOf: () => Promise<"user" | "subagent">): boolean {
    const known = this.#states.get(sessionID);
    if (known !== undefined) {
      known.prompt = prompt;
      return false;
    }
    const state: SessionState = { prompt, subagent: false, kind: Promise.resolve("user") };
    state.kind = kindOf().then((kind) => {
      state.subagent = kind === "subagent";
      return kind;
    });
    this.#states.set(sessionID, state);
    return true;
  }

  prompt(sessionID: string): Prompt | undefined {
    return this.#states.get(sessionID)?.prompt;
  }

  kind(sessionID: string): Promise<"user" | "subagent"> {
    return this.#states.get(sessionID)?.kind ?? Promise.resolve("user");
  }

  isSubagent(sessionID: string): boolean {
    return this.#states.get(sessionID)?.subagent === true;
  }

  /** The recall block fetched for this prompt, if any. */
  cachedRecall(sessionID: string, promptId: string): string | undefined {
    const recall = this.#states.get(sessionID)?.recall;
    return recall?.promptId === promptId ? recall.block : undefined;
  }

  cacheRecall(sessionID: string, promptId: string, block: string): void {
    const state = this.#states.get(sessionID);
    if (state !== undefined) state.recall = { promptId, block };
  }

  /** Marks the turn of this user message captured; false when it already was. */
  markCaptured(sessionID: string, promptId: string): boolean {
    const state = this.#states.get(sessionID);
    if (state === undefined || state.capturedId === promptId) return false;
    state.capturedId = promptId;
    return true;
  }

  forget(sessionID: string): void {
    this.#states.delete(sessionID);
  }
}
