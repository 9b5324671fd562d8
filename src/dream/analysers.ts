/**
 * The analysers a dream runs, in the order their proposals are gathered (the order does not
 * decide anything: `resolve-overlaps.ts` does, by precedence).
 *
 * @module
 */

import { analyseContradictions } from "./analyse/contradictions.js";
import { analyseCredentials } from "./analyse/credentials.js";
import { analyseDuplicates } from "./analyse/duplicates.js";
import { analyseExpired } from "./analyse/expired.js";
import { analyseLowConfidence } from "./analyse/low-confidence.js";
import { analyseNoise } from "./analyse/noise.js";
import { analyseRewrites } from "./analyse/rewrites.js";
import type { Analyser } from "./analyser.js";

export const DEFAULT_ANALYSERS: readonly Analyser[] = Object.freeze([
  analyseCredentials,
  analyseExpired,
  analyseNoise,
  analyseLowConfidence,
  analyseDuplicates,
  analyseContradictions,
  analyseRewrites,
]);
