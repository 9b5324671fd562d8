/**
 * Just enough English verb morphology to turn "I prefer" into "User prefers": the third-person
 * singular of a base form, and word lists for what must not be conjugated.
 *
 * @module
 */

/** Verbs whose subject-agreement form is not base + s. */
const IRREGULAR_PRESENT: Readonly<Record<string, string>> = {
  am: "is",
  "'m": "is",
  are: "is",
  have: "has",
  do: "does",
  go: "goes",
  "don't": "doesn't",
  dont: "doesn't",
  "haven't": "hasn't",
  "aren't": "isn't",
  "ain't": "isn't",
};

/** Modals and past forms: the same after "he" as after "I". */
const UNCHANGED: ReadonlySet<string> = new Set(
  (
    "can could will would shall should may might must ought was were had did " +
    "can't cannot couldn't won't wouldn't shouldn't mustn't wasn't weren't hadn't didn't " +
    "went got made took saw knew thought bought left felt found gave told became began kept held " +
    "brought wrote ran met paid sent built spent lost put quit let set cut hit hurt shut read said " +
    "came chose drove ate fell forgot grew heard led meant rode sold sat slept spoke stood taught " +
    "understood won wore used"
  ).split(" "),
);

/** Adverbs that may sit between the subject and its verb ("I really like"). */
export const PRE_VERB_ADVERBS: ReadonlySet<string> = new Set(
  (
    "also really usually always never often sometimes just still mostly generally typically " +
    "strongly rarely only actually now currently definitely absolutely mainly primarily " +
    "normally frequently occasionally seldom already even especially personally truly " +
    "honestly certainly probably ever"
  ).split(" "),
);

/**
 * Common base-form verbs, so that a second verb after "and" ("I prefer tabs and use Vim") is
 * conjugated only when it is surely a verb.
 */
export const COMMON_VERBS: ReadonlySet<string> = new Set(
  (
    "like love prefer use want need work live hate enjoy own play run write drink eat speak know " +
    "think go have do watch study teach drive ride cook visit plan try keep avoid build maintain " +
    "manage lead deploy code develop test review train practice listen wear follow support " +
    "believe feel get make take see find tend prepare commute travel walk bike swim read " +
    "collect bake paint draw sing dance hike climb volunteer attend host join mentor organise " +
    "organize prioritise prioritize rely depend care worry dislike favour favor recommend " +
    "expect hope plan aim intend start stop switch move keep sleep wake spend save"
  ).split(" "),
);

/**
 * The form a verb takes after a third-person singular subject; modals and past forms are kept.
 *
 * @example
 * thirdPersonVerb("prefer"); // => "prefers"
 * thirdPersonVerb("study");  // => "studies"
 * thirdPersonVerb("don't");  // => "doesn't"
 * thirdPersonVerb("moved");  // => "moved"
 */
export function thirdPersonVerb(verb: string): string {
  const lower = verb.toLowerCase().replace(/\u2019/gu, "'");
  const irregular = IRREGULAR_PRESENT[lower];
  if (irregular !== undefined) return irregular;
  if (UNCHANGED.has(lower) || /ed$/u.test(lower) || lower.includes("'")) return verb;
  if (/(?:s|sh|ch|x|z|o)$/u.test(lower)) return `${verb}es`;
  if (/[^aeiou]y$/u.test(lower)) return `${verb.slice(0, -1)}ies`;
  return `${verb}s`;
}

/**
 * Whether a word after "I" reads as its verb: a common verb, an adverb, a modal, a past form or
 * an auxiliary. Used where "I" might be a numeral ("Type I diabetes") rather than a pronoun.
 *
 * @example
 * isLikelyVerb("went");     // => true
 * isLikelyVerb("diabetes"); // => false
 */
export function isLikelyVerb(word: string): boolean {
  const lower = word.toLowerCase().replace(/\u2019/gu, "'");
  return (
    COMMON_VERBS.has(lower) ||
    PRE_VERB_ADVERBS.has(lower) ||
    UNCHANGED.has(lower) ||
    lower in IRREGULAR_PRESENT ||
    /ed$|n't$/u.test(lower)
  );
}
