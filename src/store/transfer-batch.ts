/**
 * What every backend's transfer sub-port checks the same way: a page size is a positive integer, a
 * batch holds at most one `store` record (the start of a copy), and a copy goes only into a store
 * that holds nothing yet.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import {
  type StoreFactsTransfer,
  TRANSFER_KINDS,
  type TransferCounts,
  type TransferKind,
  type TransferRecord,
} from "./ports/transfer.js";

const DEFAULT_PAGE_SIZE = 500;

/** `exportRecords`' page size: 500 unless given, and then a positive integer. */
export function pageSizeOf(options: { readonly pageSize?: number } | undefined): number {
  const pageSize = options?.pageSize ?? DEFAULT_PAGE_SIZE;
  if (!Number.isInteger(pageSize) || pageSize <= 0) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `A page of records must hold at least one, got pageSize ${pageSize}.`,
    );
  }
  return pageSize;
}

export type DataRecord = Exclude<TransferRecord, StoreFactsTransfer>;

/** The batch's `store` record (when it starts a copy) and its other records, in order. */
export function splitBatch(records: readonly TransferRecord[]): {
  readonly facts: StoreFactsTransfer | undefined;
  readonly data: readonly DataRecord[];
} {
  const facts = records.filter((record): record is StoreFactsTransfer => record.kind === "store");
  if (facts.length > 1) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `A batch of records holds ${facts.length} store records; an export has exactly one, in its first page.`,
    );
  }
  return { facts: facts[0], data: records.filter((record): record is DataRecord => record.kind !== "store") };
}

/** Refuses to start a copy into `location` while it holds any record besides its own facts. */
export function assertEmptyTarget(counts: TransferCounts, location: string): void {
  const held = TRANSFER_KINDS.filter((kind) => kind !== "store" && counts[kind] > 0);
  if (held.length === 0) return;
  throw new LucidError(
    "INVALID_ARGUMENT",
    `The store at ${location} is not empty (${held.map((kind) => `${counts[kind]} ${kind}`).join(", ")}); a copy goes into an empty store. Give another schema or file, or reset this one first.`,
    { details: { location, counts } },
  );
}

/** Zero of every kind. */
export function zeroCounts(): Record<TransferKind, number> {
  return Object.fromEntries(TRANSFER_KINDS.map((kind) => [kind, 0])) as Record<TransferKind, number>;
}
