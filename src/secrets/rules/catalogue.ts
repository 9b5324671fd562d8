/**
 * The built-in catalogue, in priority order: when two findings overlap with the same confidence
 * and length, the earlier rule wins, so provider formats come before URL rules and the
 * keyword-anchored generic rules come last.
 *
 * @module
 */

import type { SecretRule } from "../types.js";
import { AI_RULES } from "./ai.js";
import { AWS_RULES } from "./aws.js";
import { CHAT_RULES } from "./chat.js";
import { CLOUD_RULES } from "./cloud.js";
import { DEVTOOLS_RULES } from "./devtools.js";
import { GENERIC_RULES } from "./generic.js";
import { KEY_MATERIAL_RULES } from "./key-material.js";
import { MESSAGING_RULES } from "./messaging.js";
import { OBSERVABILITY_RULES } from "./observability.js";
import { PAYMENT_RULES } from "./payments.js";
import { PERSONAL_CODE_RULES } from "./personal-codes.js";
import { REGISTRY_RULES } from "./registries.js";
import { SOURCE_CONTROL_RULES } from "./source-control.js";
import { URL_RULES } from "./urls.js";
import { WORKSPACE_RULES } from "./workspace.js";

export const BUILTIN_RULES: readonly SecretRule[] = Object.freeze([
  ...KEY_MATERIAL_RULES,
  ...AWS_RULES,
  ...SOURCE_CONTROL_RULES,
  ...CHAT_RULES,
  ...PAYMENT_RULES,
  ...AI_RULES,
  ...CLOUD_RULES,
  ...REGISTRY_RULES,
  ...MESSAGING_RULES,
  ...OBSERVABILITY_RULES,
  ...DEVTOOLS_RULES,
  ...WORKSPACE_RULES,
  ...URL_RULES,
  ...PERSONAL_CODE_RULES,
  ...GENERIC_RULES,
]);
