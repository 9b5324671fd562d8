/**
 * Secret detection: find credentials in text and redact them before they are stored.
 *
 * @module
 */

export type { AllowRule } from "./allow-list.js";
export { ALLOW_RULES } from "./allow-list.js";
export type { FieldAllowRule } from "./field-names.js";
export { FIELD_ALLOW_RULES } from "./field-names.js";
export { findSecrets, redact } from "./find-secrets.js";
export { BUILTIN_RULES } from "./rules/catalogue.js";
export { createSecretScanner } from "./scanner.js";
export type {
  Confidence,
  ExtraSecretPattern,
  Finding,
  RedactResult,
  SecretRule,
  SecretScanner,
  SecretScannerOptions,
} from "./types.js";
