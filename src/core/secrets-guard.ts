/**
 * Secrets never land: every text that enters the store (add, update, import, a dream's rewrite)
 * passes through the policy's `secrets.onAdd` — `redact` (default) replaces each credential by
 * `[REDACTED:<kind>]` before the text is hashed, embedded, indexed or written to history; `reject`
 * refuses the write naming the kind; `allow` stores the text as given.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import type { SecretAction, SecretsPolicy } from "../policy/policy.js";
import { createSecretScanner } from "../secrets/index.js";
import type { SecretScanner } from "../secrets/types.js";

/** Where a secret was, never what it was. */
export interface Redaction {
  readonly kind: string;
  readonly start: number;
  readonly end: number;
  /** Where the text was when it is not the memory's text: `metadata.note`, `message.name`… */
  readonly field?: string;
}

export interface SecretsGuard {
  readonly onAdd: SecretAction;
  readonly scanner: SecretScanner;
  /** The text to store and what was redacted from it; throws SECRET_REJECTED under `reject`. */
  screen(text: string): { text: string; redactions: Redaction[] };
}

const guards = new WeakMap<SecretsPolicy, SecretsGuard>();

/**
 * The guard of a context's policy, made on first use and kept: the detector's catalogue is loaded
 * only by the code that screens or scans text, never by a command that only reads.
 *
 * @example
 * const { text, redactions } = secretsGuardOf(context).screen(given);
 */
export function secretsGuardOf(context: {
  readonly policy: { readonly secrets: SecretsPolicy };
}): SecretsGuard {
  const policy = context.policy.secrets;
  let guard = guards.get(policy);
  if (guard === undefined) {
    guard = createSecretsGuard(policy);
    guards.set(policy, guard);
  }
  return guard;
}

function createSecretsGuard(policy: SecretsPolicy): SecretsGuard {
  const { onAdd } = policy;
  const scanner = createSecretScanner({
    disabledRules: policy.disabledRules,
    extraPatterns: policy.extraPatterns,
  });
  return {
    onAdd,
    scanner,
    screen(text) {
      if (onAdd === "allow") return { text, redactions: [] };
      const result = scanner.redact(text);
      const redactions = result.findings.map(({ kind, start, end }) => ({ kind, start, end }));
      if (redactions.length > 0 && onAdd === "reject") {
        const kinds = [...new Set(redactions.map((redaction) => redaction.kind))].join(", ");
        throw new LucidError(
          "SECRET_REJECTED",
          `The text contains a credential (${kinds}) and policy.secrets.onAdd is "reject". Remove it, or store a reference to where it is kept instead.`,
          { details: { kinds: redactions.map((redaction) => redaction.kind), positions: redactions } },
        );
      }
      return { text: result.text, redactions };
    },
  };
}
