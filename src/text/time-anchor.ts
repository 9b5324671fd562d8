/**
 * Time anchors: whether a memory says when it was true ("As of 2026-03-01", "since March 2024",
 * "in 2025"), and the anchor Mem0's dream protocol adds to project and operational memories that
 * do not ("As of YYYY-MM-DD").
 *
 * @module
 */

const MONTH =
  "(?:jan(?:uary)?|feb(?:ruary)?|mar(?:ch)?|apr(?:il)?|may|june?|july?|aug(?:ust)?|sep(?:t(?:ember)?)?|oct(?:ober)?|nov(?:ember)?|dec(?:ember)?)";
const ANCHORS: readonly RegExp[] = [
  /\b\d{4}-\d{2}(?:-\d{2})?\b/u, // 2026-03 / 2026-03-01
  /\b\d{1,2}[/.]\d{1,2}[/.]\d{2,4}\b/u, // 1/3/2026, 01.03.26
  new RegExp(String.raw`\b${MONTH}\.?\s+\d{1,2}(?:st|nd|rd|th)?\b|\b${MONTH}\.?,?\s+\d{4}\b`, "iu"), // March 1, Mar 2026
  new RegExp(String.raw`\b\d{1,2}(?:st|nd|rd|th)?\s+(?:of\s+)?${MONTH}\b`, "iu"), // 1st of March
  /\bas of\b/iu,
  /\b(?:in|since|until|till|by|during|from|before|after|early|mid|late|circa)[\s-]+(?:19|20)\d{2}\b/iu,
  /\b(?:Q[1-4]|H[12]|FY)\s?'?(?:19|20)?\d{2}\b/u, // Q3 2026, FY26
];

/**
 * Whether `text` already says when it was true.
 *
 * @example
 * hasTimeAnchor("As of 2026-03-01, billing-api runs on Fly.io"); // => true
 * hasTimeAnchor("Since March 2024 the team deploys on Fridays");  // => true
 * hasTimeAnchor("billing-api runs on Fly.io");                    // => false
 */
export function hasTimeAnchor(text: string): boolean {
  return ANCHORS.some((pattern) => pattern.test(text));
}

// First words that read as part of the sentence once it no longer starts it.
const LOWERABLE = new Set(
  "the a an this that these those our their its his her we they it there user users team".split(" "),
);

/**
 * `text` prefixed with "As of <date>, ", lower-casing its first word when that word is an
 * ordinary one ("The deploy…" → "As of 2026-03-01, the deploy…"; "User…" → "…, the user…").
 *
 * @example
 * withTimeAnchor("User is migrating billing-api to Fly.io", "2026-03-01");
 * // => "As of 2026-03-01, the user is migrating billing-api to Fly.io"
 */
export function withTimeAnchor(text: string, date: string): string {
  const trimmed = text.trim();
  const first = /^\p{L}+/u.exec(trimmed)?.[0] ?? "";
  let rest = trimmed;
  if (first === "User") rest = `the user${trimmed.slice(first.length)}`;
  else if (LOWERABLE.has(first.toLowerCase()) && first !== first.toUpperCase()) {
    rest = first.toLowerCase() + trimmed.slice(first.length);
  }
  return `As of ${date}, ${rest}`;
}
