/**
 * The claim rules: sentence templates for the attributes that hold one value at a time. Each rule
 * documents what it reads and what it deliberately leaves alone (`claim-rules-systems.ts`,
 * `claim-rules-people.ts`). Templates run on third-person text with anchors and leading
 * adverbials removed (see `extractClaims`).
 *
 * @module
 */

import { PEOPLE_RULES } from "./claim-rules-people.js";
import { SYSTEM_RULES } from "./claim-rules-systems.js";
import type { ClaimRule } from "./claim-template.js";

/** Every rule, in the order claims are listed. */
export const CLAIM_RULES: readonly ClaimRule[] = [...SYSTEM_RULES, ...PEOPLE_RULES];
