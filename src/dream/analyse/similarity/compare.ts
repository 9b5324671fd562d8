/**
 * Whether two memories state the same fact, from their words: the lexical and entity agreement
 * that confirms a vector match, and the refusals that veto it when a discriminating detail differs.
 *
 * @module
 */

import { foldWord } from "../../../text/stem.js";
import { claimKey, subjectsCompatible, valuesConflict } from "./claims.js";
import { normaliseAmounts } from "./details.js";
import { isTimeTerm, type MemoryFeatures, mentions } from "./features.js";
import { RELATIONS } from "./lexicon.js";
import { oppositeStates } from "./opposite-states.js";
import { findSubstitution } from "./substitution.js";
import { compatibleTimes } from "./time-expressions.js";
import { expandShortForms, valueDifference } from "./value-slots.js";

/** Why two look-alike memories are refused as one fact. */
export const REFUSAL_REASONS = [
  /** "5 km" vs "10 km", "port 5432" vs "5433", "Node 18" vs "Node 20", "1.2.3" vs "1.3.0". */
  "number",
  /** "in 2019" vs "in 2021", "on Mondays" vs "on Thursdays", "at 9:30" vs "at 10:00". */
  "time",
  /** "staging" vs "production" (or one names an environment and the other does not). */
  "environment",
  /** "sister" vs "brother", "manager" vs "report", or a relative on one side only. */
  "relation",
  /** "likes" vs "does not like". */
  "negation",
  /** A name, component or place on each side that the other does not mention ("Marta" vs "Ana"). */
  "name",
  /** Same subject and attribute, incompatible values: a contradiction, never a merge. */
  "conflict",
  /** Same attribute of two different subjects ("billing-api" vs "auth-api" deploy targets). */
  "subject",
  /** The same sentence with one content word swapped ("dentist appointment" vs "physio appointment"). */
  "substitution",
  /** A value on each side the other never mentions ("Render" vs "AWS", "Neovim" vs "VS Code"). */
  "value",
  /** One side says the fact changed ("switched to", "no longer", "is now") and the other does not. */
  "change",
  /** Opposite states of one switch: "on" vs "off", "enabled" vs "disabled", "dark" vs "light". */
  "state",
] as const;

export type RefusalReason = (typeof REFUSAL_REASONS)[number];

export interface Refusal {
  readonly reason: RefusalReason;
  /** What differs, e.g. "5 km ≠ 10 km". */
  readonly detail: string;
}

/** How much a shared or differing word counts; 1 for every word unless the caller knows better. */
export type TermWeight = (term: string) => number;

export interface PairComparison {
  /** Weighted Jaccard overlap of the stemmed content words, 0–1. */
  readonly overlap: number;
  readonly sharedTerms: readonly string[];
  /** Entity names both mention. */
  readonly sharedEntities: readonly string[];
  /** Lexical and entity agreement are enough to confirm a vector match. */
  readonly agrees: boolean;
  /** Why the two must not be merged, whatever their similarity; empty when nothing differs. */
  readonly refusals: readonly Refusal[];
}

/**
 * Weighted content-word overlap from which two memories count as worded alike. Words are weighted
 * by inverse document frequency in the scope, so the subject every memory shares ("User", "Li Wei")
 * counts little. Calibrated on test/fixtures/dream/pairs.json: paraphrase pairs there score 0.31–1.0
 * (median ~0.6), while unrefused look-alikes above the vector threshold score ≤ 0.26, except
 * same-subject pairs that `STRONG_OVERLAP` and the predicate check handle.
 */
export const MIN_OVERLAP = 0.3;
/** At least two shared content words (subject and predicate): one word in common is a topic, not a fact. */
export const MIN_SHARED_TERMS = 2;
/**
 * Overlap from which the predicate check is waived: paraphrases that carry their content in names
 * ("Grafana dashboards live at grafana.internal…" / "The team's Grafana is at grafana.internal…")
 * share little outside them. No look-alike in the fixture reaches it.
 */
export const STRONG_OVERLAP = 0.5;

/**
 * Compares two memories' words.
 *
 * @example
 * const result = comparePair(memoryFeatures(a), memoryFeatures(b));
 * // "User runs 5 km every morning" vs "User runs 10 km every morning":
 * // result.refusals => [{ reason: "number", detail: "5 km ≠ 10 km" }]
 */
export function comparePair(
  a: MemoryFeatures,
  b: MemoryFeatures,
  weight: TermWeight = () => 1,
): PairComparison {
  const { overlap, shared } = lexicalOverlap(a, b, weight);
  const names = nameAgreement(a, b);
  const agrees =
    overlap >= MIN_OVERLAP &&
    shared.length >= MIN_SHARED_TERMS &&
    names.compatible &&
    (overlap >= STRONG_OVERLAP || predicatesMeet(a, b, names.shared));
  return {
    overlap,
    sharedTerms: shared,
    sharedEntities: names.shared,
    agrees,
    refusals: refusals(a, b, names),
  };
}

/**
 * The weighted content-word overlap alone: cheap, so callers can drop most vector neighbours before
 * the full comparison reads names (the costly part).
 *
 * @example
 * lexicalOverlap(features("Maria runs 5 km"), features("Maria jogs 5 km")).overlap; // => 1
 */
export function lexicalOverlap(
  a: MemoryFeatures,
  b: MemoryFeatures,
  weight: TermWeight = () => 1,
): { readonly overlap: number; readonly shared: string[] } {
  const shared = [...a.terms].filter((term) => b.terms.has(term)).sort();
  let sharedWeight = 0;
  let unionWeight = 0;
  for (const term of a.terms) unionWeight += weight(term);
  for (const term of b.terms) if (!a.terms.has(term)) unionWeight += weight(term);
  for (const term of shared) sharedWeight += weight(term);
  return { overlap: unionWeight === 0 ? 0 : sharedWeight / unionWeight, shared };
}

let relationWords: ReadonlySet<string> | undefined;

/** The relation words ("sister", "manager"…) as compared terms: part of a subject, not a predicate. */
function relationTerms(): ReadonlySet<string> {
  relationWords ??= new Set(Object.keys(RELATIONS).map(foldWord));
  return relationWords;
}

/**
 * Whether the two say something in common about their shared subject. Two memories about the same
 * person or component that share only the subject ("Mei takes piano lessons" / "Mei is 7") are two
 * facts. The subject is the names both mention, relation words and "user"; each side's own names
 * are left out too, because a name shares words by accident ("data team" / "#data-oncall"). A side
 * with nothing left ("Li Wei is married to Chen Jie") is all subject and cannot disagree.
 */
function predicatesMeet(a: MemoryFeatures, b: MemoryFeatures, sharedNames: readonly string[]): boolean {
  const relations = relationTerms();
  const subject = new Set(["user", ...sharedNames.flatMap(nameWords)]);
  const predicate = (features: MemoryFeatures) => {
    const own = new Set(features.entities.flatMap((entity) => nameWords(entity.key)));
    return [...features.terms].filter((term) => !subject.has(term) && !own.has(term) && !relations.has(term));
  };
  const left = predicate(a);
  const right = new Set(predicate(b));
  return left.length === 0 || right.size === 0 || left.some((term) => right.has(term));
}

/** A name's words as compared terms: "Li Wei" → ["li", "wei"]. */
export function nameWords(name: string): string[] {
  return name
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map(foldWord);
}

export interface NameAgreement {
  readonly shared: string[];
  readonly onlyA: string[];
  readonly onlyB: string[];
  /** Either side names nothing, or the two share a name. */
  readonly compatible: boolean;
}

/** The names both mention, and those each mentions alone. */
export function nameAgreement(a: MemoryFeatures, b: MemoryFeatures): NameAgreement {
  const shared: string[] = [];
  const onlyA: string[] = [];
  const onlyB: string[] = [];
  for (const entity of a.entities) (mentions(b, entity.key) ? shared : onlyA).push(entity.name);
  for (const entity of b.entities) {
    if (!mentions(a, entity.key)) onlyB.push(entity.name);
    // "Haddad" on one side names "Professor Haddad" on the other: the longer form is not a name
    // of its own.
    else if (!shared.includes(entity.name)) {
      shared.push(entity.name);
      const longer = onlyA.findIndex((name) => name.includes(entity.name));
      if (longer >= 0) onlyA.splice(longer, 1);
    }
  }
  // The tagger takes a sentence's first word for a name ("Crash reports go to Sentry", "Opening
  // time is 07:00"): one capitalised word the other side uses as a plain word is no name.
  const plainIn = (features: MemoryFeatures) => (name: string) =>
    !/\s/u.test(name) && features.terms.has(foldWord(name.toLowerCase()));
  for (const [own, other] of [
    [onlyA, b],
    [onlyB, a],
  ] as const) {
    for (let i = own.length - 1; i >= 0; i--) if (plainIn(other)(own[i] as string)) own.splice(i, 1);
  }
  const compatible = a.entities.length === 0 || b.entities.length === 0 || shared.length > 0;
  return { shared: [...new Set(shared)].sort(), onlyA, onlyB, compatible };
}

function refusals(a: MemoryFeatures, b: MemoryFeatures, names: NameAgreement): Refusal[] {
  const found = detailRefusals(a, b);
  const add = (reason: RefusalReason, detail: string) => found.push({ reason, detail });
  if (names.onlyA.length > 0 && names.onlyB.length > 0)
    add("name", `${names.onlyA.join(", ")} ≠ ${names.onlyB.join(", ")}`);

  for (const ca of a.claims) {
    for (const cb of b.claims) {
      if (ca.attribute !== cb.attribute || ca.environments.join() !== cb.environments.join()) continue;
      if (claimKey(ca) === claimKey(cb) && valuesConflict(ca.rule, ca.value, cb.value)) {
        add("conflict", `${ca.attribute}: ${ca.valueText} ≠ ${cb.valueText}`);
      } else if (!subjectsCompatible(ca.subject, cb.subject)) {
        add("subject", `${ca.attribute} of ${ca.subjectText} ≠ of ${cb.subjectText}`);
      }
    }
  }

  // Only worth aligning when nothing else already tells the two apart.
  if (found.length === 0) {
    const comparable = (text: string) => normaliseAmounts(expandShortForms(text));
    const swaps = findSubstitution(comparable(a.text), comparable(b.text));
    if (swaps !== undefined) add("substitution", swaps.join(", "));
  }
  return found;
}

/**
 * The refusals read from each memory's details alone — numbers, times, environments, relations,
 * polarity, opposed states, values, a stated change — without the names, claims or alignment that
 * cost a tagger run: enough to rule most pairs out cheaply.
 */
export function detailRefusals(a: MemoryFeatures, b: MemoryFeatures): Refusal[] {
  const found: Refusal[] = [];
  const add = (reason: RefusalReason, detail: string) => found.push({ reason, detail });
  const da = a.details;
  const db = b.details;

  const numbers = exclusive(da.numbers, db.numbers, sameQuantity);
  if (numbers !== undefined) add("number", numbers);
  const times = exclusive(
    da.times.map((time) => time.key),
    db.times.map((time) => time.key),
    compatibleTimes,
  );
  if (times !== undefined) add("time", times);
  const environments = environmentDifference(da.environments, db.environments);
  if (environments !== undefined) add("environment", environments);
  const relations = relationDifference(da.relations, db.relations);
  if (relations !== undefined) add("relation", relations);
  if (da.negated !== db.negated) add("negation", da.negated ? "negated ≠ affirmed" : "affirmed ≠ negated");
  const states = oppositeStates(a.text, b.text);
  if (states !== undefined) add("state", states);
  const values = valueDifference(a, b);
  if (values !== undefined) add("value", values);
  if ((a.change === undefined) !== (b.change === undefined))
    add("change", `"${a.change ?? b.change}" on one side only: an update of the fact, not a restatement`);
  else if (sinceOnOneSide(a, b)) add("change", `"since" dates a new state that the other does not state`);
  return found;
}

const SINCE = /\bsince\b/iu;

/**
 * "Since …" on one side dates the start of a state. It restates the other when it only adds the
 * date ("Maria has been vegetarian since 2018" / "Maria is vegetarian"), and may replace it when
 * each says something the other does not ("User has been vegan since March" / "User is
 * vegetarian"): the values of a slot need not be names, so that pair is never merged.
 */
function sinceOnOneSide(a: MemoryFeatures, b: MemoryFeatures): boolean {
  if (SINCE.test(a.text) === SINCE.test(b.text)) return false;
  const own = (x: MemoryFeatures, y: MemoryFeatures) =>
    [...x.terms].some((term) => !y.terms.has(term) && !isTimeTerm(term) && !/\d/u.test(term));
  return own(a, b) && own(b, a);
}

/** Differences that make two look-alikes two facts in two contexts, not two values of one slot. */
const CONTEXT_REASONS: ReadonlySet<RefusalReason> = new Set([
  "time",
  "environment",
  "relation",
  "subject",
  "negation",
  "number",
]);
/** Beside a stated change, a new time, number, person or denial is the change itself. */
const CHANGE_CONTEXT_REASONS: ReadonlySet<RefusalReason> = new Set(["environment", "relation", "subject"]);

export interface SlotDisagreement {
  /** What differs, e.g. "render ≠ aws", or the changed statement's own words. */
  readonly values: string;
  /** The change cue one of them states ("switched", "is now"). */
  readonly change: string;
  readonly sharedTerms: readonly string[];
  readonly overlap: number;
}

/**
 * Whether one memory changes what the other states: worded alike (the same overlap a merge needs),
 * and either
 * - exactly one of them says the fact changed ("The team uses Jenkins" / "The team switched from
 *   Jenkins to GitHub Actions", "The default branch is master" / "…is now main", "Standup is at
 *   9:30" / "Standup moved to 10:00"), the rest of the two agreeing in environment, relation and
 *   subject; or
 * - both say so, with a value on each side the other never mentions, and nothing else telling
 *   them apart (no other time, number, environment, relation, polarity, subject, and no person
 *   named on one side only).
 *
 * Two values with no change stated ("Redis" / "Postgres") may both hold and are not a disagreement
 * here; such pairs are only refused as merges.
 *
 * @example
 * slotDisagreement(features("Alice uses Neovim"), features("Alice switched to VS Code"));
 * // => { values: "neovim ≠ vs code", change: "switched", sharedTerms: ["alice", …], … }
 */
export function slotDisagreement(
  a: MemoryFeatures,
  b: MemoryFeatures,
  weight: TermWeight = () => 1,
): SlotDisagreement | undefined {
  const changeA = strongChange(a);
  const changeB = strongChange(b);
  if (changeA === undefined && changeB === undefined) return undefined;
  const { overlap, shared } = lexicalOverlap(a, b, weight);
  if (overlap < MIN_OVERLAP || shared.length < MIN_SHARED_TERMS) return undefined;
  const names = nameAgreement(a, b);
  const found = refusals(a, b, names);
  const values = valueDifference(a, b);
  if (changeA === undefined || changeB === undefined) {
    if (found.some((refusal) => CHANGE_CONTEXT_REASONS.has(refusal.reason))) return undefined;
    const changed = changeA === undefined ? b : a;
    const other = changed === a ? b : a;
    const own = [...changed.terms].filter((term) => !other.terms.has(term));
    // The changed statement must say something the other does not, or it only dates the same fact.
    if (values === undefined && own.length === 0) return undefined;
    return {
      values: values ?? own.join(" "),
      change: (changeA ?? changeB) as string,
      sharedTerms: shared,
      overlap,
    };
  }
  if (values === undefined) return undefined;
  const isValue = (name: string) => valueWordsOf(a, b).has(name.toLowerCase());
  if ([...names.onlyA, ...names.onlyB].some((name) => !isValue(name))) return undefined;
  if (found.some((refusal) => CONTEXT_REASONS.has(refusal.reason))) return undefined;
  return { values, change: changeA, sharedTerms: shared, overlap };
}

/** "Started" says a fact began, not that another ended ("started running" / "runs 5 km"). */
function strongChange(features: MemoryFeatures): string | undefined {
  return features.change === undefined || features.change === "started" ? undefined : features.change;
}

function valueWordsOf(a: MemoryFeatures, b: MemoryFeatures): Set<string> {
  return new Set([...a.values, ...b.values]);
}

/** "5 km" matches "5 km" and a bare "5"; "5 km" never matches "10 km" or "5 mile". */
function sameQuantity(a: string, b: string): boolean {
  if (a === b) return true;
  const [valueA, unitA] = a.split(" ");
  const [valueB, unitB] = b.split(" ");
  return valueA === valueB && (unitA === undefined || unitB === undefined);
}

/** "x ≠ y" when each side has a value the other has nothing compatible with; undefined otherwise. */
function exclusive(
  a: readonly string[],
  b: readonly string[],
  compatible: (x: string, y: string) => boolean,
): string | undefined {
  const onlyA = a.filter((x) => !b.some((y) => compatible(x, y)));
  const onlyB = b.filter((y) => !a.some((x) => compatible(x, y)));
  return onlyA.length > 0 && onlyB.length > 0 ? `${onlyA.join(", ")} ≠ ${onlyB.join(", ")}` : undefined;
}

/**
 * Named environments (production, staging, dev, qa…) must match exactly: "the staging database" is
 * not "the database". "local" is weaker ("a local orchestra"), so it only refuses against another
 * environment.
 */
function environmentDifference(a: readonly string[], b: readonly string[]): string | undefined {
  const strongA = a.filter((env) => env !== "local");
  const strongB = b.filter((env) => env !== "local");
  const differ = (x: readonly string[], y: readonly string[]) => x.join() !== y.join();
  if (differ(strongA, strongB) || (a.length > 0 && b.length > 0 && differ(a, b))) {
    return `${a.join(", ") || "none"} ≠ ${b.join(", ") || "none"}`;
  }
  return undefined;
}

/**
 * Relations must match, including presence: "Maria's sister lives in Porto" is not about Maria.
 * "Married to" (spouse) agrees with "wife" or "husband"; "wife" and "husband" still differ.
 */
function relationDifference(a: readonly string[], b: readonly string[]): string | undefined {
  const gendered = (relation: string) => relation === "wife" || relation === "husband";
  const fold = (mine: readonly string[], theirs: readonly string[]) =>
    theirs.includes("spouse") && !theirs.some(gendered)
      ? mine.map((r) => (gendered(r) ? "spouse" : r))
      : mine;
  const left = [...new Set(fold(a, b))].sort().join(", ");
  const right = [...new Set(fold(b, a))].sort().join(", ");
  return left === right ? undefined : `${left || "none"} ≠ ${right || "none"}`;
}
