/**
 * Copying a whole store into another — SQLite into PostgreSQL, or back — through the transfer
 * sub-port: one snapshot of the source, page by page into the target (which must be empty), then
 * the counts of every kind compared.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import { TRANSFER_KINDS, type TransferCounts, type TransferKind } from "./ports/transfer.js";
import type { MemoryStore } from "./store.js";
import { zeroCounts } from "./transfer-batch.js";

export interface CopyProgress {
  /** Records copied so far. */
  readonly copied: number;
  /** How many the source held when the copy began (the progress bar's end). */
  readonly total: number;
}

export interface CopyStoreOptions {
  /** Called after each page is committed in the target. */
  readonly onProgress?: (progress: CopyProgress) => void;
  /** Records per page, and so per transaction in the target. Default 500. */
  readonly pageSize?: number;
}

export interface CopyResult {
  /** What the target holds now, by kind: what was copied. */
  readonly counts: TransferCounts;
  readonly verified: true;
}

/**
 * Copies every record of `from` into `to`, exactly (ids, sequence numbers, timestamps, history, runs,
 * vectors), and verifies that both hold as many records of each kind as were copied. `to` must be
 * empty: a store holding records refuses with INVALID_ARGUMENT before anything is written. Counts
 * that differ afterwards — the source was written to while it was copied, or the target was — fail
 * with STORE_FAILED, naming each kind.
 *
 * @example
 * const from = createSqliteStore({ path: "~/.lucid/lucid.db" });
 * const to = await openPostgresStore({ url: process.env.LUCID_PG_URL });
 * const { counts } = await copyStore(from, to, { onProgress: ({ copied, total }) => console.log(copied, total) });
 */
export async function copyStore(
  from: MemoryStore,
  to: MemoryStore,
  options: CopyStoreOptions = {},
): Promise<CopyResult> {
  const before = await from.countRecords();
  const total = TRANSFER_KINDS.reduce((sum, kind) => sum + before[kind], 0);
  const copied = zeroCounts();
  let done = 0;
  const pages = from.exportRecords(options.pageSize === undefined ? {} : { pageSize: options.pageSize });
  for await (const page of pages) {
    await to.importRecords(page);
    for (const record of page) copied[record.kind]++;
    done += page.length;
    options.onProgress?.({ copied: done, total });
  }
  await to.finishImport();
  const [source, target] = await Promise.all([from.countRecords(), to.countRecords()]);
  const differing = TRANSFER_KINDS.filter(
    (kind) => source[kind] !== copied[kind] || target[kind] !== copied[kind],
  );
  if (differing.length > 0) {
    throw new LucidError(
      "STORE_FAILED",
      `The copy from ${from.location} to ${to.location} does not match: ${differing.map((kind) => describe(kind, { source, copied, target })).join("; ")}. Stop every process writing to either store, then copy again into an empty store.`,
      { details: { differing, source, copied, target } },
    );
  }
  return { counts: target, verified: true };
}

function describe(
  kind: TransferKind,
  counts: { source: TransferCounts; copied: TransferCounts; target: TransferCounts },
): string {
  return `${kind}: ${counts.copied[kind]} copied, the source now holds ${counts.source[kind]}, the target ${counts.target[kind]}`;
}
