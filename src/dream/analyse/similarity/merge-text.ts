/**
 * The text of a merge: the most complete member, in the third person, plus the details only the
 * others carry (a time anchor, a number, a name), each added as the phrase it came in.
 *
 * Conservative on purpose: nothing is reworded, and only phrases holding a missing detail are
 * added, so the merged text never says more than some member said.
 *
 * @module
 */

import { toThirdPerson as rewritePerson } from "../../../text/person.js";
import { contentTerms } from "../../../text/stem.js";
import { type MemoryFeatures, mentions } from "./features.js";

const toThirdPerson = (text: string): string => rewritePerson(text).text;

import { compatibleTimes, type TimeExpression } from "./time-expressions.js";

// Where a modifier phrase starts: these phrases can be appended to any sentence as they are.
const MODIFIER_START =
  "in|on|at|since|from|via|with|for|every|each|during|until|after|before|by|using|through|because|while|when|daily|weekly|nightly";
const CHUNK_BOUNDARY = new RegExp(String.raw`\s*[,;()]\s*|\s+(?=(?:${MODIFIER_START})\b)`, "giu");
const STARTS_AS_MODIFIER = new RegExp(String.raw`^(?:${MODIFIER_START})\b`, "iu");
const TRAILING = /[\s.!?;,]+$/u;

export interface Composition {
  /** The member whose text the merge starts from (the memory kept). */
  readonly base: MemoryFeatures;
  readonly text: string;
}

/**
 * The merge of `members`: each member is tried as the base, and the one whose merged text keeps
 * most of the group's content words wins ("most complete"); then the one that needed the fewest
 * added phrases (a member's own sentence reads better than a patched one), the shorter text, the
 * newer member and the smaller id.
 *
 * @example
 * composeMerge([
 *   features("Maria plays cello in a community orchestra."),
 *   features("Maria plays the cello every Thursday."),
 * ]).text;
 * // => "Maria plays cello in a community orchestra every Thursday."
 */
export function composeMerge(members: readonly MemoryFeatures[]): Composition {
  const all = new Set(members.flatMap((member) => [...member.terms]));
  const candidates = members.map((base) => {
    const { text, added } = merge(
      base,
      members.filter((member) => member !== base),
    );
    const covered = [...contentTerms(text)].filter((term) => all.has(term)).length;
    return { base, text, added, covered };
  });
  const [best] = candidates.sort(
    (x, y) =>
      y.covered - x.covered ||
      x.added - y.added ||
      x.text.length - y.text.length ||
      compare(y.base.memory.updatedAt, x.base.memory.updatedAt) ||
      compare(x.base.memory.id, y.base.memory.id),
  );
  if (best === undefined) throw new RangeError("composeMerge needs at least one member");
  return { base: best.base, text: best.text };
}

/**
 * The merged text: `base` with every "As of" anchor of the group and the phrases carrying details
 * that only `others` have.
 *
 * @example
 * mergeText(features("Maria is vegetarian."), [features("Maria has been vegetarian since 2018.")]);
 * // => "Maria is vegetarian since 2018."
 */
export function mergeText(base: MemoryFeatures, others: readonly MemoryFeatures[]): string {
  return merge(base, others).text;
}

/** The merged text and how many phrases were added to the base's own. */
function merge(base: MemoryFeatures, others: readonly MemoryFeatures[]): { text: string; added: number } {
  // A leading "As of …," is taken off and put back with the newest anchor of the group.
  const leading = base.details.anchors.filter((anchor) => anchor.start === 0);
  let text = withoutAnchors(toThirdPerson(base.memory.text), leading).replace(TRAILING, "");
  const kept = new Set(
    base.details.anchors.filter((anchor) => anchor.start !== 0).map((anchor) => anchor.key),
  );
  const anchors = new Set(leading.map((anchor) => anchor.key));
  const additions: string[] = [];
  for (const other of others) {
    for (const anchor of other.details.anchors) if (!kept.has(anchor.key)) anchors.add(anchor.key);
    for (const phrase of carryingPhrases(base, other)) {
      if (!additions.some((added) => added.toLowerCase() === phrase.toLowerCase())) additions.push(phrase);
    }
  }
  for (const phrase of additions) text += STARTS_AS_MODIFIER.test(phrase) ? ` ${phrase}` : ` (${phrase})`;
  // The newest observation leads, as the rewrites analyser writes anchors; older ones follow.
  const [newest, ...older] = [...anchors].sort().reverse();
  if (newest !== undefined) text = `As of ${newest}, ${text}`;
  if (older.length > 0) text += ` (also true as of ${older.reverse().join(", ")})`;
  const anchorsAdded = [...anchors].filter((key) => !leading.some((anchor) => anchor.key === key)).length;
  return { text: `${text}.`, added: additions.length + anchorsAdded };
}

/** The phrases of `other` (anchors removed) that hold a number, time or name `base` lacks. */
function carryingPhrases(base: MemoryFeatures, other: MemoryFeatures): string[] {
  const text = withoutAnchors(toThirdPerson(other.memory.text), other.details.anchors);
  const missingNumbers = other.details.numbers.filter(
    (n) => !base.details.numbers.some((m) => sameValue(n, m)),
  );
  const missingTimes = other.details.times.filter(
    (t) => !base.details.times.some((u) => compatibleTimes(t.key, u.key)),
  );
  const missingNames = other.entities
    .filter((entity) => !mentions(base, entity.key))
    .map((entity) => entity.name);
  if (missingNumbers.length + missingTimes.length + missingNames.length === 0) return [];

  const phrases: string[] = [];
  for (const chunk of text.split(CHUNK_BOUNDARY)) {
    const phrase = chunk.replace(TRAILING, "").trim();
    if (phrase.length === 0) continue;
    const carries =
      missingNumbers.some((n) =>
        new RegExp(String.raw`(?<![\d.])${escapeRegExp(n.split(" ")[0] ?? "")}(?![\d.])`, "u").test(phrase),
      ) ||
      missingTimes.some((t) => phrase.includes(t.text)) ||
      missingNames.some((name) => phrase.includes(name));
    if (carries) phrases.push(phrase);
  }
  return phrases;
}

function withoutAnchors(text: string, anchors: readonly TimeExpression[]): string {
  let out = text;
  for (const anchor of [...anchors].sort((a, b) => b.start - a.start)) {
    out = out.slice(0, anchor.start) + out.slice(anchor.end).replace(/^,?\s*/u, "");
  }
  return out;
}

function sameValue(a: string, b: string): boolean {
  return a.split(" ")[0] === b.split(" ")[0];
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
}

function compare(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}
