/**
 * One-call helpers over a shared default scanner, and a per-options-object cache so that passing
 * the same options object again never recompiles its patterns.
 *
 * @module
 */

import { createSecretScanner } from "./scanner.js";
import type { Finding, RedactResult, SecretScanner, SecretScannerOptions } from "./types.js";

let defaultScanner: SecretScanner | undefined;
const scanners = new WeakMap<SecretScannerOptions, SecretScanner>();

function scannerFor(options: SecretScannerOptions | undefined): SecretScanner {
  if (options === undefined) {
    defaultScanner ??= createSecretScanner();
    return defaultScanner;
  }
  let scanner = scanners.get(options);
  if (scanner === undefined) {
    scanner = createSecretScanner(options);
    scanners.set(options, scanner);
  }
  return scanner;
}

/**
 * Every secret in `text`: kind, rule, UTF-16 span of the value and confidence, in text order and
 * without overlaps.
 *
 * @example
 * findSecrets("wifi password: hunter2!x");
 * // [{ kind: "password", ruleId: "password-assignment", start: 15, end: 24, labelStart: 5, confidence: "medium" }]
 */
export function findSecrets(text: string, options?: SecretScannerOptions): Finding[] {
  return scannerFor(options).find(text);
}

/**
 * `text` with every secret value replaced by `[REDACTED:<kind>]`, and what was replaced.
 *
 * @example
 * redact("the wifi password is hunter2!x").text; // "the wifi password is [REDACTED:password]"
 */
export function redact(text: string, options?: SecretScannerOptions): RedactResult {
  return scannerFor(options).redact(text);
}
