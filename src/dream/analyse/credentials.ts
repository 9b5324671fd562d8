/**
 * Credentials: memories holding an API key, token, password or private key (found by
 * `src/secrets`). A memory that is nothing but the secret and its label is deleted; one that
 * still states a useful fact once the value is gone is rewritten with the value replaced by
 * `[REDACTED:<kind>]`, with the other rewrites of `improve-text.ts` in the same action. A pinned
 * memory is always redacted in place, never deleted; an immutable one (identity) may be deleted,
 * but when redacted gets no other change.
 *
 * @module
 */

import { createSecretScanner, type Finding } from "../../secrets/index.js";
import { keywordTerms } from "../../text/keywords.js";
import type { Analyser } from "../analyser.js";
import { isImmutable } from "../memory-facts.js";
import type { DeleteAction, RewriteAction } from "../plan.js";
import { improveText } from "./improve-text.js";

// Words about the secret itself: "the staging password is [REDACTED]" says nothing once the
// value is gone, so these do not count as useful content.
const CREDENTIAL_WORDS = new Set(
  (
    "api key keys token tokens password passwords passwd pwd pass passphrase secret secrets credential " +
    "credentials bearer auth authorization login access private public client id value export set env " +
    "environment variable var use using used here new old current redacted code codes pin otp 2fa mfa " +
    "verification recovery combination username user json yml yaml toml ini cfg conf env properties " +
    // A card's own words: its brand and the fields printed beside the number.
    "card cvv cvc cvv2 exp expiry expires valid thru visa mastercard amex"
  ).split(" "),
);
const CREDENTIAL_FRAGMENT = /key|token|secret|passw|pwd|credential|auth/u;

/** Distinct content words left once the secret is removed; this many make the memory worth keeping. */
export const USEFUL_MIN_WORDS = 4;

/**
 * @example
 * analyseCredentials(snapshot, policy);
 * // => [{ kind: "delete", ids: ["m3"], reason: "credential", … },
 * //     { kind: "rewrite", ids: ["m9"], text: "Deploy billing-api with token [REDACTED:github-pat] from CI", reasons: ["credential_redacted"], … }]
 */
export const analyseCredentials: Analyser = (snapshot, policy) => {
  const scanner = createSecretScanner({
    disabledRules: policy.secrets.disabledRules,
    extraPatterns: policy.secrets.extraPatterns,
  });
  const actions: (DeleteAction | RewriteAction)[] = [];
  for (const memory of snapshot.memories) {
    const { text: redacted, findings } = scanner.redact(memory.text);
    if (findings.length === 0) continue;
    const kinds = [...new Set(findings.map((finding) => finding.kind))];
    const evidence = {
      kinds,
      rules: [...new Set(findings.map((finding) => finding.ruleId))],
      count: findings.length,
    };
    // The provider a kind names ("stripe", "telegram", "bot") only says which secret it was.
    const kindWords = new Set(kinds.flatMap((kind) => kind.split("-")));
    const useful = usefulWords(withoutSecrets(memory.text, findings)).filter((word) => !kindWords.has(word));
    const frozen = memory.pinned || isImmutable(memory, policy);
    if (!memory.pinned && useful.length < USEFUL_MIN_WORDS) {
      actions.push({
        kind: "delete",
        ids: [memory.id],
        reason: "credential",
        why: {
          rule: "credential",
          detail: `holds ${kinds.join(", ")}; nothing useful remains without it`,
          evidence: { ...evidence, remaining: useful },
        },
      });
      continue;
    }
    const improved = frozen ? undefined : improveText(memory, redacted, policy);
    actions.push({
      kind: "rewrite",
      ids: [memory.id],
      text: improved?.text ?? redacted,
      reasons: ["credential_redacted", ...(improved?.reasons ?? [])],
      why: {
        rule: "credential",
        detail: `holds ${kinds.join(", ")}; redacted ${memory.pinned ? "in place (pinned)" : "because the rest is useful"}`,
        evidence: { ...evidence, remaining: useful, ...improved?.evidence },
      },
    });
  }
  return actions;
};

// A URL's user, host and path, an account's address, and bare numbers (a card's expiry, the other
// codes of a list) say nothing once the secret is gone: a memory that is only a connection string
// or a login is only the secret.
const URL = /\b[a-z][a-z0-9+.-]*:\/\/\S+/giu;
const EMAIL = /[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gu;
// Asking to be reminded is not a fact: "please remember, the password of …". Nor are the function
// words of the other languages notes are written in ("contraseña del router", "Passwort fürs VPN").
const REQUEST_WORDS = new Set(
  (
    "please remember note jot down save keep store here " +
    "de del la el los las le les du des un une et y e o para por pour für fürs der die das und mit " +
    "no lo en est es ist il elle au al que qui se su sus son sa ses mon ma mes mi mis mein meine " +
    "ton ta tu tus dein deine ce cette c'est voor van het een gli di da per con"
  ).split(" "),
);

/** A label longer than this is a sentence that happens to precede the value, not a label. */
const LABEL_MAX_WORDS = 4;

/**
 * The text with each secret cut out, and the label the rule read before it when that label is
 * short: "mot de passe :", "Zahlenschloss", "wifi pwd" are the secret's own words, in whatever
 * language the rule knows them, and say nothing once the value is gone.
 */
function withoutSecrets(text: string, findings: readonly Finding[]): string {
  let rest = "";
  let from = 0;
  for (const finding of findings) {
    const label = text.slice(finding.labelStart, finding.start);
    const labelWords = label
      .split(/[\s']+/u)
      .filter((word) => /\p{L}/u.test(word) && !REQUEST_WORDS.has(word.toLowerCase())).length;
    const cut = labelWords <= LABEL_MAX_WORDS ? finding.labelStart : finding.start;
    rest += `${text.slice(from, Math.max(from, cut))} `;
    from = finding.end;
  }
  return rest + text.slice(from);
}

function usefulWords(rest: string): string[] {
  return keywordTerms(rest.replace(URL, " ").replace(EMAIL, " ")).filter(
    (word) =>
      !CREDENTIAL_WORDS.has(word) &&
      !CREDENTIAL_FRAGMENT.test(word) &&
      !REQUEST_WORDS.has(word) &&
      !/^\d+$/u.test(word),
  );
}
