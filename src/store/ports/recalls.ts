/**
 * The recalls sub-port: sleep's evidence of use, one record per range of a workspace's notes
 * (`memory:<path>:<start>:<end>`), kept per workspace. The store keeps each record as given; what
 * a record holds (counts, query hashes, days) is the sleep service's to read and write, so this
 * port stays a place to put it.
 *
 * @module
 */

export interface StoredRecall {
  readonly key: string;
  /** The sleep service's entry, a plain JSON object. */
  readonly entry: Readonly<Record<string, unknown>>;
  /** When the record was last written (ISO). */
  readonly updatedAt: string;
  /** When its range was last recalled (ISO). */
  readonly recalledAt: string;
  /** Records of a lower priority are evicted first; within one, the least recently recalled. */
  readonly priority: number;
}

export interface RecallsPort {
  /** The workspace's records with these keys, in the order asked; unknown keys are left out. */
  getRecalls(workspace: string, keys: readonly string[]): Promise<StoredRecall[]>;
  /** Every record of the workspace, by key. */
  listRecalls(workspace: string): Promise<StoredRecall[]>;
  /** Inserts each record, or replaces the one with its key. */
  putRecalls(workspace: string, records: readonly StoredRecall[]): Promise<void>;
  deleteRecalls(workspace: string, keys: readonly string[]): Promise<void>;
  /**
   * Keeps at most `max` records of the workspace: past it, deletes the lowest `priority` first and
   * within it the least recently recalled (`recalledAt`, then key), never one of `keep`. Returns how
   * many it deleted.
   */
  trimRecalls(workspace: string, max: number, keep: readonly string[]): Promise<number>;
}
