/**
 * The web UI declares the JSON it reads in `ui/src/wire.ts` (it is built for the browser, apart
 * from the server's code). These checks hold those declarations to the server's own types: each
 * server type must be assignable to its wire counterpart, so a field the server renames, drops or
 * retypes fails `npm run typecheck` here instead of rendering blank in the page. Type-only: this
 * file is compiled by `tsc -b` (it lies in `test/`), never run.
 */

import type { ActionOutcome, ApplyCounts, ApplyResult } from "../../src/dream/apply/apply-plan.js";
import type { UndoResult } from "../../src/dream/apply/undo-run.js";
import type { DreamAction, DreamPlan, ReviewItem } from "../../src/dream/plan.js";
import type { changeOut } from "../../src/http/routes/lucid-dream.js";
import type { ScanFinding, ScanResult } from "../../src/memory/scan.js";
import type { ScoreDetails } from "../../src/memory/types.js";
import type { Explanation } from "../../src/sleep/explain.js";
import type { PromoteResult, PromotionCandidate } from "../../src/sleep/promotion-types.js";
import type { RollbackResult } from "../../src/sleep/sleep-rollback.js";
import type { SleepStatus } from "../../src/sleep/sleep-status.js";
import type * as Wire from "../../ui/src/wire.js";

/** Compiles only when `Server` can be sent where the UI expects `Ui`. */
type Fits<Server extends Ui, Ui> = [Server, Ui];

export type WireContract = [
  Fits<ScoreDetails, Wire.ScoreBreakdown>,
  Fits<DreamAction, Wire.DreamAction>,
  Fits<ReviewItem, Wire.ReviewItem>,
  Fits<DreamPlan, Wire.DreamPlan>,
  Fits<ApplyCounts, Wire.ApplyCounts>,
  Fits<ActionOutcome, Wire.ActionOutcome>,
  // The route adds `applied` (whether a run was recorded) to the SDK's result.
  Fits<ApplyResult & { applied: boolean }, Wire.ApplyResponse>,
  Fits<ReturnType<typeof changeOut>, Wire.MemoryChange>,
  Fits<UndoResult, Wire.UndoResult>,
  Fits<PromotionCandidate, Wire.PromotionCandidate>,
  Fits<SleepStatus, Wire.SleepStatus>,
  Fits<PromoteResult, Wire.PromoteResult>,
  Fits<Explanation, Wire.Explanation>,
  Fits<RollbackResult, Wire.RollbackResult>,
  Fits<ScanFinding, Wire.ScanFinding>,
  Fits<ScanResult, Wire.ScanResult>,
];
