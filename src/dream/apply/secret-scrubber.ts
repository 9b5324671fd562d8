/**
 * What a dream apply does for a credential it takes out of a memory: scrub it from the memory's
 * other traces (history, the scope's messages) and, with `--purge-secrets`, from the runs' records.
 *
 * @module
 */

import type { MemoryContext } from "../../core/context.js";
import { purgeFromRuns, scrubHistoryAndMessages, secretsIn } from "../../core/erase-secrets.js";
import type { ValueScrub } from "../../store/ports/erasure.js";
import type { MemoryRow } from "../../store/ports/memories.js";
import type { MemoryStoreOps } from "../../store/store.js";
import type { RunLog } from "./run-log.js";

/** Credentials the run took out of memories, and where else it scrubbed them. */
export interface SecretsScrubbed {
  /** Memories whose detected credentials the run removed (redacted or deleted). */
  readonly memories: number;
  /** History rows and messages scrubbed of them. */
  readonly history: number;
  readonly messages: number;
  /** Run preimages rewritten without them (`purgeSecrets` only; 0 otherwise). */
  readonly preimages: number;
  readonly purged: boolean;
}

/**
 * Takes a credential the run removes from a memory out of the memory's other traces: whatever
 * action removed it (a credential redaction, a deletion, a merge), a detected secret of the text
 * before that is no longer in the text after is scrubbed from the memory's history and its scope's
 * messages at once; with `purge`, `finish` also takes every such value out of the preimages and
 * plans of this scope's runs (this one's included).
 */
export class SecretScrubber {
  private readonly removedFrom = new Set<string>();
  private readonly values = new Map<string, ValueScrub>();
  private history = 0;
  private messages = 0;
  private preimages = 0;

  constructor(
    private readonly context: MemoryContext,
    private readonly tx: MemoryStoreOps,
    private readonly log: RunLog,
    private readonly purge: boolean,
  ) {}

  /** After `before` was rewritten to `after` (null: deleted). */
  async removed(before: MemoryRow, after: string | null): Promise<void> {
    const values = secretsIn(this.context, [before.text]).filter(
      ({ value }) => after === null || !after.includes(value),
    );
    if (values.length === 0) return;
    const counts = await scrubHistoryAndMessages(this.tx, before, values);
    this.history += counts.history;
    this.messages += counts.messages;
    this.removedFrom.add(before.id);
    for (const value of values) this.values.set(value.value, value);
  }

  /** With `purge`: the values out of this run's preimages and of earlier runs' of the scope. */
  async finish(scopeKeyOfPlan: string): Promise<void> {
    if (!this.purge || this.values.size === 0) return;
    const values = [...this.values.values()].sort((a, b) => b.value.length - a.value.length);
    this.preimages += this.log.scrub(values);
    const runIds = await this.tx.runsTouching({
      scopeKeys: [scopeKeyOfPlan],
      memoryIds: [...this.removedFrom],
    });
    this.preimages += (await purgeFromRuns(this.tx, runIds, values)).preimages;
  }

  counts(): SecretsScrubbed {
    return {
      memories: this.removedFrom.size,
      history: this.history,
      messages: this.messages,
      preimages: this.preimages,
      purged: this.purge,
    };
  }
}
