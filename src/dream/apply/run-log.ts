/**
 * Collects, during an apply, the preimage of every memory the run touches (before its first
 * change) and its state after the run, which undo restores and checks against.
 *
 * @module
 */

import { scrubPreimage } from "../../core/erase-secrets.js";
import type { ValueScrub } from "../../store/ports/erasure.js";
import type { MemoryChange, MemoryPreimage } from "../../store/ports/runs.js";
import type { MemoryStoreOps } from "../../store/store.js";

export class RunLog {
  private readonly before = new Map<string, MemoryPreimage | null>();
  private readonly order: string[] = [];

  constructor(private readonly tx: MemoryStoreOps) {}

  /** Records how `id` is now, the first time the run is about to change it. */
  async touch(id: string): Promise<void> {
    if (this.before.has(id)) return;
    const row = await this.tx.getMemory(id);
    if (row === null) {
      this.before.set(id, null);
    } else {
      const [embeddings, entities] = await Promise.all([
        this.tx.getEmbeddings([id]),
        this.tx.getEntityLinks(id),
      ]);
      this.before.set(id, { row, embedding: embeddings.get(id) ?? null, entities });
    }
    this.order.push(id);
  }

  /**
   * Takes `values` out of every preimage kept so far (`dream --purge-secrets`): undo then restores
   * those memories without them. How many preimages changed.
   */
  scrub(values: readonly ValueScrub[]): number {
    let changed = 0;
    for (const [id, before] of this.before) {
      if (before === null) continue;
      const scrubbed = scrubPreimage(before, values);
      if (scrubbed === before) continue;
      this.before.set(id, scrubbed);
      changed++;
    }
    return changed;
  }

  /** Every touched memory with its state now, at the end of the run. */
  async finish(): Promise<MemoryChange[]> {
    const rows = await this.tx.getMemories(this.order);
    const after = new Map(rows.map((row) => [row.id, { hash: row.hash, updatedAt: row.updatedAt }]));
    return this.order.map((memoryId) => ({
      kind: "memory",
      memoryId,
      before: this.before.get(memoryId) ?? null,
      after: after.get(memoryId) ?? null,
    }));
  }
}
