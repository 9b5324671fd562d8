/**
 * The history sub-port: the append-only record of every change to a memory, and each session
 * scope's recent messages.
 *
 * @module
 */

export const HISTORY_ACTIONS = ["ADD", "UPDATE", "DELETE"] as const;
export type HistoryAction = (typeof HISTORY_ACTIONS)[number];

export interface NewHistoryRow {
  readonly memoryId: string;
  readonly action: HistoryAction;
  readonly previousValue: string | null;
  readonly newValue: string | null;
  /** Who made the change: `"user"` for SDK calls, `"dream:<run-id>"` for dream runs… */
  readonly actor: string;
  readonly createdAt: string;
  /**
   * What an UPDATE changed, by name — `text`, `category`, `expiresAt`, `metadata.<key>` — never the
   * values (a metadata value stays where the secrets screen has already looked: the memory itself).
   */
  readonly changed?: readonly string[];
}

export interface HistoryRow extends NewHistoryRow {
  readonly seq: number;
}

export interface StoredMessage {
  readonly role: string;
  readonly content: string;
  readonly name: string | null;
  readonly createdAt: string;
}

export interface HistoryPort {
  addHistory(row: NewHistoryRow): Promise<void>;
  /** Oldest first. */
  listHistory(memoryId: string): Promise<HistoryRow[]>;
  /** Appends to a session's message log, keeping only its newest `keepLast` messages. */
  addMessages(sessionScope: string, messages: readonly StoredMessage[], keepLast: number): Promise<void>;
  listMessages(sessionScope: string): Promise<StoredMessage[]>;
}
