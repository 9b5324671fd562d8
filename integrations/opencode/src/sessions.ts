/**
 * What the plugin remembers about each OpenCode session while the host runs: the user's latest
 * message (the query for recall, and the fallback for capture), the recall block already fetched
 * for it (OpenCode builds the messages again at every step of a turn: tool calls make
 * several), the last turn captured (a session goes idle after every turn, and again on resume),
 * and whether it is a subagent's (the `task` tool's child sessions: they read memories, but store
 * none and are not sessions of the user's).
 *
 * @module
 */

/** Whose session: the user's, a subagent's, or not known (the host could not say: treated as not the user's). */
export type SessionKind = "user" | "subagent" | "unknown";

export interface Prompt {
  /** The user message's id. */
  readonly id: string;
  readonly text: string;
}

interface SessionState {
  prompt?: Prompt;
  recall?: { readonly promptId: string; readonly block: string };
  capturedId?: string;
  /** Settles once the host has said whose session it is. */
  kind: Promise<SessionKind>;
  /** Settled kind (until then, "unknown"). */
  known: SessionKind;
}

export class Sessions {
  readonly #states = new Map<string, SessionState>();

  /** `kindOf` asks the host whose session an id is; it is asked once per session. */
  constructor(private readonly kindOf: (sessionID: string) => Promise<SessionKind>) {}

  /** Keeps the user's message; true when it is the session's first (the caller counts the session). */
  prompted(sessionID: string, prompt: Prompt): boolean {
    const known = this.#states.get(sessionID);
    this.#state(sessionID).prompt = prompt;
    return known === undefined;
  }

  prompt(sessionID: string): Prompt | undefined {
    return this.#states.get(sessionID)?.prompt;
  }

  /** Whose session, asked of the host the first time (a session first seen at capture or in a tool too). */
  kind(sessionID: string): Promise<SessionKind> {
    return this.#state(sessionID).kind;
  }

  /** Whether memories may be changed in this session: only the user's, once the host has said so. */
  async isUsers(sessionID: string): Promise<boolean> {
    return (await this.kind(sessionID)) === "user";
  }

  /** A subagent's, as far as is known now (for the note recall adds; no waiting). */
  isSubagent(sessionID: string): boolean {
    return this.#states.get(sessionID)?.known === "subagent";
  }

  #state(sessionID: string): SessionState {
    let state = this.#states.get(sessionID);
    if (state === undefined) {
      const created: SessionState = { known: "unknown", kind: Promise.resolve("unknown") };
      created.kind = this.kindOf(sessionID).then((kind) => {
        created.known = kind;
        return kind;
      });
      this.#states.set(sessionID, created);
      state = created;
    }
    return state;
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
