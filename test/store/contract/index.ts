/**
 * The MemoryStore contract, in parts: what every backend must do, run against each real database
 * (`describeStoreContract(backend, STORE_CONTRACT)`).
 */

import { erasurePart } from "./erasure.js";
import type { ContractPart } from "./harness.js";
import { historyPart } from "./history.js";
import { leasesPart } from "./leases.js";
import { maintenancePart } from "./maintenance.js";
import { memoriesPart } from "./memories.js";
import { notesPart } from "./notes.js";
import { recallsPart } from "./recalls.js";
import { runsPart } from "./runs.js";
import { searchPart } from "./search.js";
import { sleepStatePart } from "./sleep-state.js";
import { snapshotsPart } from "./snapshots.js";
import { transactionsPart } from "./transactions.js";
import { transferPart } from "./transfer.js";

export const STORE_CONTRACT: readonly ContractPart[] = [
  memoriesPart,
  searchPart,
  snapshotsPart,
  historyPart,
  runsPart,
  erasurePart,
  leasesPart,
  recallsPart,
  sleepStatePart,
  notesPart,
  maintenancePart,
  transactionsPart,
  transferPart,
];
