/**
 * The shapes the secret detector speaks in: findings, rules and scanner options.
 *
 * @module
 */

/** How sure a rule is: `high` for a provider format with a fixed prefix, length or checksum. */
export type Confidence = "high" | "medium";

/** One secret found in a text. Offsets are UTF-16 code units, like `String.prototype.slice`. */
export interface Finding {
  /** What the secret is, e.g. `github-pat`; also the label in `[REDACTED:<kind>]`. */
  readonly kind: string;
  /** The catalogue rule (or extra pattern) that found it; pass it to `disabledRules` to silence it. */
  readonly ruleId: string;
  /** Start of the secret value itself, not of the keyword before it. */
  readonly start: number;
  /** End (exclusive) of the secret value. */
  readonly end: number;
  /**
   * Start of the whole match: the keyword or label the rule read before the value ("mot de passe :",
   * "wifi pwd"), or `start` when the rule matches the value alone.
   */
  readonly labelStart: number;
  readonly confidence: Confidence;
}

/** A user pattern that extends the built-in catalogue. */
export interface ExtraSecretPattern {
  /** Unique among built-in rule ids and other extras. */
  readonly id: string;
  /** Label for findings and redactions: letters, digits, `.`, `_` or `-`. */
  readonly kind: string;
  /**
   * Regular-expression source. The secret is the named group `value` when the pattern has one,
   * else the whole match. Placeholder allow-rules do not apply: an extra pattern means what it says.
   */
  readonly pattern: string;
  /** RegExp flags (`i`, `m`, `s`, `u`, `v`); `g` and `d` are always added, `y` is dropped. */
  readonly flags?: string;
}

export interface SecretScannerOptions {
  /** Rule ids (built-in or extra) to switch off. */
  readonly disabledRules?: readonly string[];
  /** Patterns added to the built-in catalogue (they never replace it). */
  readonly extraPatterns?: readonly ExtraSecretPattern[];
}

export interface RedactResult {
  /** The text with each secret value replaced by `[REDACTED:<kind>]`. */
  readonly text: string;
  /** What was replaced, with offsets into the original text. */
  readonly findings: readonly Finding[];
}

export interface SecretScanner {
  /** Every secret in `text`, without overlaps, in text order. */
  find(text: string): Finding[];
  /** `text` with every secret replaced, and the findings. */
  redact(text: string): RedactResult;
}

/** A match a rule is asked to judge. */
export interface Candidate {
  /** The secret value as the pattern captured it (after the rule's `trim`). */
  readonly value: string;
  /** Offset of `value` in `text`. */
  readonly start: number;
  /** Offset of the whole match (keyword included) in `text`. */
  readonly matchStart: number;
  readonly text: string;
  /** Named groups of the match, for rules that look at the keyword or scheme around the value. */
  readonly groups: Readonly<Record<string, string | undefined>>;
}

/** One entry of the built-in catalogue. */
export interface SecretRule {
  readonly id: string;
  readonly kind: string;
  /** Why the rule is shaped the way it is; rendered into docs/secrets.md. */
  readonly reason: string;
  /** Confidence of a match that passes `assess` (which may lower it). */
  readonly confidence: Confidence;
  /**
   * Lower-case literals of which at least one must occur in the lower-cased text for the rule to
   * run: the cheap prefilter that keeps clean text fast. Empty means "always run".
   */
  readonly keywords: readonly string[];
  /**
   * Global pattern with the `d` flag. The secret is the `value` group, else the `quoted` group
   * (quote-aware rules), else the whole match.
   */
  readonly pattern: RegExp;
  /** Shortens the captured value (trailing punctuation, a query string's next parameter). */
  readonly trim?: (candidate: Candidate) => string;
  /** Final judgement: the confidence to report, or `null` to drop the match. */
  readonly assess?: (candidate: Candidate) => Confidence | null;
  /** Generic (keyword-anchored) rules also run the value allow-rules scoped `generic`. */
  readonly generic?: boolean;
}
