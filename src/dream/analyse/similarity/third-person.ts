/**
 * First person to third ("I prefer tabs" → "User prefers tabs"), for merged texts and for reading
 * claims. A deliberately tiny local copy: the rewrites analyser owns the full rewrite; a merge
 * takes precedence over a rewrite, so its text must already be in the third person.
 *
 * @module
 */

// Words after "I" that are not verbs to conjugate: modals and past forms stay as they are, and
// adverbs are skipped so the verb after them is conjugated ("I always use" → "User always uses").
const UNCHANGED = new Set(
  "can could will would shall should may might must was did had went ran took made got said came saw began bought left met kept wrote ate drove built led felt thought told found gave knew".split(
    " ",
  ),
);
const ADVERBS = "always|never|usually|often|sometimes|also|really|just|still|only|mostly|rarely|generally";
const SUBJECT_I = new RegExp(String.raw`(\band )?\bI((?: (?:${ADVERBS}))*) ([a-z']+)\b`, "gu");
const IRREGULAR: Readonly<Record<string, string>> = {
  am: "is",
  have: "has",
  do: "does",
  go: "goes",
  "don't": "doesn't",
};
const CONTRACTIONS: readonly (readonly [RegExp, string])[] = [
  [/\bI'm\b/gu, "User is"],
  [/\bI've\b/gu, "User has"],
  [/\bI'll\b/gu, "User will"],
  [/\bI'd\b/gu, "User would"],
];

/**
 * The text with first-person subject, possessive and object pronouns in the third person.
 *
 * @example
 * toThirdPerson("I back up my photos every night"); // => "User backs up their photos every night"
 * toThirdPerson("My sister lives in Porto"); // => "User's sister lives in Porto"
 */
export function toThirdPerson(text: string): string {
  let out = text.replace(/[\u2018\u2019]/gu, "'");
  for (const [pattern, replacement] of CONTRACTIONS) out = out.replace(pattern, replacement);
  out = out.replace(SUBJECT_I, (_whole, before: string | undefined, adverbs: string, verb: string) =>
    // "Maria and I go": a compound subject is already plural, so the verb stays.
    before === undefined ? `User${adverbs} ${conjugate(verb)}` : `${before}User${adverbs} ${verb}`,
  );
  out = out.replace(/\bI\b/gu, "User");
  // The first possessive names the user; later ones refer back ("User backs up their photos").
  let named = /\bUser\b/u.test(out);
  out = out.replace(/\b(my|My|mine|Mine|me|myself)\b/gu, (word) => {
    const lower = word.toLowerCase();
    const capital = word !== lower;
    if (lower === "myself") return "themselves";
    if (lower === "mine") return named ? "theirs" : "User's";
    const pronoun = lower === "me" ? "them" : "their";
    const replacement = named && !capital ? pronoun : lower === "me" ? "User" : "User's";
    named = true;
    return replacement;
  });
  return out;
}

function conjugate(verb: string): string {
  const irregular = IRREGULAR[verb];
  if (irregular !== undefined) return irregular;
  if (UNCHANGED.has(verb) || verb.endsWith("ed") || verb.includes("'")) return verb;
  if (/(?:s|sh|ch|x|z|o)$/u.test(verb)) return `${verb}es`;
  if (/[^aeiou]y$/u.test(verb)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}
