/**
 * Nearest neighbours that never cross a partition: each row's neighbours are found among the rows
 * of its own group only. A dream partitions a snapshot by owner (the full stored scope, see
 * `ownerKey` in core/scope.ts), so no analyser that pairs memories through `snapshot.neighbours`
 * can pair two owners' memories: a scope named by one key (`agent_id=main`) may hold alice's and
 * bob's memories, and a merge of the two would move bob's words into alice's memory.
 *
 * Each group gets the index its own size calls for (exact or approximate), built on its first
 * query. One group holding every row searches the set itself; otherwise each group of two or more
 * rows copies its vectors into a set of its own, so a snapshot of many owners holds its vectors
 * about twice — the price of an approximate index that only ever sees one owner's rows.
 *
 * @module
 */

import { createNeighbourIndex, type NeighbourIndex } from "./neighbour-index.js";
import type { Scored } from "./top-k.js";
import { subsetVectorSet, type VectorSet } from "./vector-set.js";

export interface PartitionedIndex {
  /** Up to `k` other rows of `row`'s group most similar to it, best first (ties: lower row first). */
  search(row: number, k: number): Scored[];
  /** How many other rows `row`'s group has: the most `search` can return. */
  peers(row: number): number;
}

/**
 * `groups[row]` names row's group; rows of one group are the only neighbours of each other.
 *
 * @example
 * const index = createPartitionedIndex(set, ["alice", "bob", "alice"]);
 * index.search(0, 5); // => [{ row: 2, score: 0.97 }] — never row 1
 */
export function createPartitionedIndex(
  set: VectorSet,
  groups: readonly string[],
  options: { exactLimit?: number | undefined } = {},
): PartitionedIndex {
  const members = new Map<string, number[]>();
  for (const [row, group] of groups.entries()) {
    const rows = members.get(group);
    if (rows === undefined) members.set(group, [row]);
    else rows.push(row);
  }
  // Rows are pushed in ascending order, so a group's local order is the set's: ties still break
  // towards the lower row.
  const localRow = new Uint32Array(groups.length);
  for (const rows of members.values()) {
    for (const [at, row] of rows.entries()) localRow[row] = at;
  }
  const rowsOf = (row: number) => members.get(groups[row] as string);
  const indexes = new Map<readonly number[], NeighbourIndex>();
  const exactLimit = options.exactLimit === undefined ? {} : { exactLimit: options.exactLimit };

  return {
    peers: (row) => Math.max(0, (rowsOf(row)?.length ?? 1) - 1),
    search(row, k) {
      const rows = rowsOf(row);
      if (rows === undefined || rows.length < 2 || k <= 0) return [];
      let index = indexes.get(rows);
      if (index === undefined) {
        const own = rows.length === set.count ? set : subsetVectorSet(set, rows);
        index = createNeighbourIndex(own, exactLimit);
        indexes.set(rows, index);
      }
      return index
        .search(localRow[row] as number, k)
        .map((hit) => ({ row: rows[hit.row] as number, score: hit.score }));
    },
  };
}
