/**
 * Same slot, another value: two memories that say the same thing about the same subject except for
 * one value — a number, a date or clock time, a product or place — with no change stated. "The
 * ledger API listens on port 8081 in production" / "Production ledger API port: 9090", "Training
 * jobs run on a g5.xlarge on AWS" / "…on an AWS p3.2xlarge", "Veer's passport expires on
 * 2027-08-19" / "Veer's passport expiry date is 3 February 2031".
 *
 * The judgement is an alignment of the two statements' frames: each memory's content words with
 * the values only it has taken out (a value both mention, "AWS", "Valorant", is part of the frame).
 * The frames must share at least two words of predicate (beyond the subject: "user", a person or a
 * value both name), so one shared verb is not a slot: "Alice speaks Spanish" / "Alice speaks
 * French", "a cat named Miso" / "a cat named Tofu", "uses Grafana for dashboards" / "uses PagerDuty
 * for alerting" may all hold at once.
 *
 * - **sure**: one frame holds the other whole, with at most one word to spare ("listens on port
 *   8081" / "port: 9090") and two words of predicate or more, so nothing but the value tells them
 *   apart;
 * - **unsure**: each frame has a word or two of its own ("the shop's oven" / "the bakery's oven",
 *   "laptop" / "desktop" would be two subjects), or the predicate is one word ("Rook's Valorant rank
 *   is Gold 2"): a question for the review tier, never an action.
 *
 * Anything that makes them two facts in two contexts (an environment, a relation, a polarity, a
 * person named on one side only, a subject) rules the pair out, as does a stated change (that is
 * `slotDisagreement`'s).
 *
 * @module
 */

import { foldWord } from "../../../text/stem.js";
import {
  comparePair,
  detailRefusals,
  nameAgreement,
  nameWords,
  type RefusalReason,
  type TermWeight,
} from "./compare.js";
import { isTimeTerm, type MemoryFeatures } from "./features.js";
import { opposedPair } from "./opposite-states.js";
import { exclusiveValues } from "./value-slots.js";

type ExclusiveValues = ReturnType<typeof exclusiveValues>;

export interface ValueConflict {
  /** What differs, e.g. "8081 ≠ 9090" or "g5.xlarge ≠ p3.2xlarge". */
  readonly values: string;
  /** The frame words both state, as the first memory writes them ("coffee machine"). */
  readonly frame: readonly string[];
  /** Words only one frame has, per side, as written: empty on one side when the judgement is sure. */
  readonly onlyA: readonly string[];
  readonly onlyB: readonly string[];
  /** One frame holds the other whole: nothing but the value differs. */
  readonly sure: boolean;
}

/** Refusals that a differing value itself causes. */
const VALUE_REASONS: ReadonlySet<RefusalReason> = new Set([
  "number",
  "time",
  "value",
  "name",
  "substitution",
  "state",
]);
/** The frame words a value conflict needs beyond its subject. */
const MIN_PREDICATE_TERMS = 2;
/** Words the larger frame of a sure judgement may have that the smaller one lacks. */
const MAX_SPARE = 1;
/** More words of its own on either side and the two say different things, not one slot. */
const MAX_UNSURE_LEFTOVER = 2;
/** Two compared words this long that start alike are one word in two forms ("manager" / "manages"). */
const PREFIX = 5;

// Verbs that carry no slot of their own: "gets 7 hours" / "a limit of 5 hours", "goes up to 8 km".
const LIGHT_VERBS: ReadonlySet<string> = new Set(
  [
    "be",
    "is",
    "are",
    "was",
    "go",
    "get",
    "take",
    "have",
    "has",
    "make",
    "do",
    "does",
    "keep",
    "up",
    "turn",
    "set",
  ].map(foldWord),
);

/**
 * @example
 * valueConflict(features("The ledger API listens on port 8081 in production"),
 *               features("Production ledger API port: 9090"));
 * // => { values: "8081 ≠ 9090", frame: ["api", "ledger", "port", "production"], sure: true, … }
 */
export function valueConflict(
  a: MemoryFeatures,
  b: MemoryFeatures,
  weight: TermWeight = () => 1,
): ValueConflict | undefined {
  // The contradiction analyser and the review tier both ask, each pair from both ends: judge it
  // once, in the order of the ids, and turn the answer round for the other end.
  const swapped = b.memory.id < a.memory.id;
  const [first, second] = swapped ? [b, a] : [a, b];
  let judged = JUDGED.get(first);
  if (judged === undefined) {
    judged = new WeakMap();
    JUDGED.set(first, judged);
  }
  let result = judged.get(second);
  if (result === undefined) {
    result = judge(first, second, weight) ?? null;
    judged.set(second, result);
  }
  if (result === null) return undefined;
  return swapped ? { ...result, onlyA: result.onlyB, onlyB: result.onlyA } : result;
}

// Per pair of features objects, which live as long as their snapshot's cache.
const JUDGED = new WeakMap<MemoryFeatures, WeakMap<MemoryFeatures, ValueConflict | null>>();

/**
 * Whether anything could differ as a value, from what each memory has already read: a number, a
 * time or a value word on each side, or an opposed state. Most neighbours have none, and are spared
 * the full comparison (which runs the tagger).
 */
function mayDifferInValue(a: MemoryFeatures, b: MemoryFeatures, values: ExclusiveValues): boolean {
  const eitherWay = (x: readonly string[], y: readonly string[]) =>
    x.some((item) => !y.includes(item)) && y.some((item) => !x.includes(item));
  if (eitherWay(a.details.numbers, b.details.numbers)) return true;
  const times = (features: MemoryFeatures) => features.details.times.map((time) => time.key);
  if (eitherWay(times(a), times(b))) return true;
  if (values.onlyA.length > 0 && values.onlyB.length > 0) return true;
  return opposedPair(a.text, b.text) !== undefined;
}

function judge(a: MemoryFeatures, b: MemoryFeatures, weight: TermWeight): ValueConflict | undefined {
  if (a.change !== undefined || b.change !== undefined) return undefined;
  // A subject and a predicate word at least, before anything costlier.
  let common = 0;
  for (const term of a.terms) if (b.terms.has(term)) common++;
  const values = exclusiveValues(a, b);
  if (common < 2 || !mayDifferInValue(a, b, values)) return undefined;
  // The frames and the details need only words: most pairs are ruled out before the comparison,
  // whose names cost a tagger run. (More than MAX_UNSURE_LEFTOVER words of its own on either side is
  // never sure either: MAX_SPARE is smaller.)
  const early = frames(a, b, values);
  if (early.onlyA.length > MAX_UNSURE_LEFTOVER || early.onlyB.length > MAX_UNSURE_LEFTOVER) return undefined;
  const details = detailRefusals(a, b);
  if (!details.every((refusal) => VALUE_REASONS.has(refusal.reason))) return undefined;
  if (details.filter((refusal) => !(refusal.reason === "number" && numbersInValues(a, b))).length > 1)
    return undefined;
  const comparison = comparePair(a, b, weight);
  // One slot: a single kind of value differs. A name and a number both differing ("SEV1 incidents
  // … 2 days" / "SEV3 incidents … 10 days") is a qualifier and its value: two facts.
  const differing = comparison.refusals.filter(
    (refusal) => refusal.reason !== "name" && !(refusal.reason === "number" && numbersInValues(a, b)),
  );
  if (differing.length !== 1 || !comparison.refusals.every((refusal) => VALUE_REASONS.has(refusal.reason)))
    return undefined;
  const names = nameAgreement(a, b);
  const valueWords = new Set([...a.values, ...b.values]);
  // A name on one side only must be the value itself, or a word the other side has too (the tagger
  // takes a sentence's first word for a name: "Deliveries go up to 8 km" / "the delivery radius").
  // A lone capitalised first word may be the subject's name on one side only ("Veer's home airport
  // is…" / "User's home airport:…") or a common word ("Bedtime for the kids…"), as long as the other
  // side names nobody of its own ("Alice lives in Lyon" / "Bob lives in Paris" are two people).
  const isValue = (name: string, other: MemoryFeatures) =>
    valueWords.has(name.toLowerCase()) || nameWords(name).every((word) => other.terms.has(word));
  const leading = (name: string, own: MemoryFeatures) =>
    !/\s/u.test(name) && own.text.trimStart().startsWith(name);
  const outside = (
    own: MemoryFeatures,
    other: MemoryFeatures,
    mine: readonly string[],
    theirs: readonly string[],
  ) =>
    mine.some(
      (name) =>
        !isValue(name, other) && !(leading(name, own) && theirs.every((their) => isValue(their, own))),
    );
  if (outside(a, b, names.onlyA, names.onlyB) || outside(b, a, names.onlyB, names.onlyA)) return undefined;

  const { valuesA, valuesB, stateA, shared, onlyA, onlyB } = early;
  // A value both mention is context, like the subject: "The React Native app uses Redux" / "The
  // React Native app is on RN 0.72" share only "app" beyond it, and are two facts.
  const sharedValues = [...valueWords].filter(
    (value) => !valuesA.includes(value) && !valuesB.includes(value),
  );
  // So is an environment both name ("in production").
  const subject = new Set([
    "user",
    ...names.shared.flatMap(nameWords),
    ...sharedValues.flatMap(nameWords),
    ...a.details.environments.map(foldWord),
  ]);
  // A relation is part of the predicate here ("Maria's sister lives in Porto" / "…in Lisbon"): the
  // relation refusal has already ruled out two different relatives.
  const predicate = shared.filter((term) => !subject.has(term));
  if (predicate.length === 0) return undefined;
  // One frame holds the other with at most one word to spare: more, and the spare words may name
  // another subject ("The search cluster runs…" / "The cluster is in…").
  const contained =
    (onlyA.length === 0 && onlyB.length <= MAX_SPARE) || (onlyB.length === 0 && onlyA.length <= MAX_SPARE);
  // A number or a time that differs beside a value one side alone names ("Postmortems are due within
  // 5 days" / "Postmortems for SEV1 incidents are due within 2 days") is a rule and its exception.
  const qualified = differing[0]?.reason !== "value" && valuesA.length + valuesB.length > 0;
  // A switch has one position at a time: opposed states need only their subject ("The repository is
  // public on GitHub" / "…private on GitHub").
  const minPredicate = stateA === undefined ? MIN_PREDICATE_TERMS : 1;
  const sure = contained && !qualified && predicate.length >= minPredicate;
  return {
    values: differing.map((refusal) => refusal.detail).join("; "),
    frame: asWritten(a, shared),
    onlyA: asWritten(a, onlyA),
    onlyB: asWritten(b, onlyB),
    sure,
  };
}

interface Frames {
  readonly valuesA: readonly string[];
  readonly valuesB: readonly string[];
  readonly stateA: string | undefined;
  readonly shared: readonly string[];
  readonly onlyA: readonly string[];
  readonly onlyB: readonly string[];
}

/** The two statements' frames, aligned: what both state and what each states alone. */
function frames(a: MemoryFeatures, b: MemoryFeatures, values: ExclusiveValues): Frames {
  const { onlyA: valuesA, onlyB: valuesB } = values;
  // The opposed states are the values of a switch ("enabled" / "disabled"); a state both share
  // ("the gym opens") is part of the frame.
  const [stateA, stateB] = opposedPair(a.text, b.text) ?? [];
  const frameA = frame(a, stateA === undefined ? valuesA : [...valuesA, stateA]);
  const frameB = frame(b, stateB === undefined ? valuesB : [...valuesB, stateB]);
  const shared = frameA.filter((term) => frameB.some((other) => sameWord(term, other)));
  return {
    valuesA,
    valuesB,
    stateA,
    shared,
    onlyA: frameA.filter((term) => !shared.includes(term)),
    onlyB: frameB.filter((term) => !frameA.some((other) => sameWord(term, other))),
  };
}

/**
 * Whether every number on each side is written beside one of its values, so number and value are one
 * compound value ("Platinum 1" / "Gold 2", "Pace 3" / "Forerunner 255"), not a qualifier and a value.
 */
function numbersInValues(a: MemoryFeatures, b: MemoryFeatures): boolean {
  const inValue = (features: MemoryFeatures) =>
    features.details.numbers.every((number) => {
      const digits = number.split(" ")[0] ?? number;
      return features.values.some((value) => {
        const text = features.text.toLowerCase();
        return text.includes(`${value} ${digits}`) || text.includes(`${digits} ${value}`);
      });
    });
  return inValue(a) && inValue(b);
}

/**
 * The memory's content words without its own values (an opposed state among them), numbers,
 * times and light verbs. Units
 * stay: "5 km" / "8 km" share theirs, and "nightly" / "weekly" are part of what each says.
 */
function frame(features: MemoryFeatures, ownValues: readonly string[]): string[] {
  const valueTerms = new Set(ownValues.flatMap((value) => value.split(/[\s.:/_-]+/u)).map(foldWord));
  return [...features.terms].filter(
    (term) => !/\d/u.test(term) && !isTimeTerm(term) && !valueTerms.has(term) && !LIGHT_VERBS.has(term),
  );
}

/** Compared terms back as the memory writes them: "machin" → "machine", "offic" → "office". */
function asWritten(features: MemoryFeatures, terms: readonly string[]): string[] {
  const words = features.text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return terms.map((term) => words.find((word) => foldWord(word) === term) ?? term);
}

function sameWord(x: string, y: string): boolean {
  return x === y || (x.length >= PREFIX && y.length >= PREFIX && x.slice(0, PREFIX) === y.slice(0, PREFIX));
}
