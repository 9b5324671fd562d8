/**
 * What makes a merge unsafe even when two memories look alike: a word saying the fact changed, or
 * a value on each side that the other does not have. "billing-api deploys to Render" and
 * "billing-api deploys to AWS" share every word but the value; "Alice uses Neovim" and "Alice
 * switched to VS Code" say that a fact changed. Merging either pair would lose the newer fact or
 * fuse two contradicting ones, so such pairs are never merged (the contradiction analyser and a
 * person decide them).
 *
 * Values are read from the words' shape, not from a list of products: a capitalised word inside a
 * sentence ("Render", "AWS", "VS Code"), a word with an inner dot, digit or plus ("Fly.io",
 * "node20", "C++"). Common short forms are folded first ("k8s" = "Kubernetes", "Postgres" =
 * "PostgreSQL"), so a restatement in other words keeps its merge.
 *
 * @module
 */

/** Short forms and their long forms, both lower case: one value written two ways. */
const SHORT_FORMS: Readonly<Record<string, string>> = {
  k8s: "kubernetes",
  kube: "kubernetes",
  postgres: "postgresql",
  pg: "postgresql",
  psql: "postgresql",
  js: "javascript",
  ts: "typescript",
  py: "python",
  golang: "go",
  gh: "github",
  gcp: "google cloud",
  gcloud: "google cloud",
  tf: "terraform",
  "node.js": "node",
  nodejs: "node",
  vscode: "vs code",
  "vs-code": "vs code",
  mongo: "mongodb",
  es: "elasticsearch",
  "next.js": "next",
  nextjs: "next",
  "vue.js": "vue",
  vuejs: "vue",
  "react.js": "react",
  reactjs: "react",
  mac: "macos",
  osx: "macos",
  win: "windows",
  // Street names, as addresses abbreviate them.
  st: "street",
  rd: "road",
  ave: "avenue",
  blvd: "boulevard",
};

/** A URL or URI, a path of two parts or more, or a snake_case identifier. */
const IDENTIFIER =
  /\b[a-z][a-z0-9+.-]*:\/\/[^\s,;)]+|(?:~|\.{1,2})?\/[\w.-]+(?:\/[\w.-]+)+|\b[\p{L}\p{N}]+(?:_[\p{L}\p{N}]+)+\b/giu;
// A word, with the inner dots, digits, pluses and hyphens of product names.
const TOKEN = /[\p{L}\p{N}][\p{L}\p{N}.+#-]*[\p{L}\p{N}+#]|[\p{L}\p{N}]/gu;
/** Whether the word at `index` starts a sentence: only spaces, quotes or a bracket since an end. */
export function startsSentence(text: string, index: number): boolean {
  for (let i = index - 1; i >= 0; i--) {
    const char = text[i] as string;
    if (char === "\n" || ".!?:;".includes(char)) return true;
    if (!/[\s"'(“‘]/u.test(char)) return false;
  }
  return true;
}

/**
 * The value-like words of `text` (third person, time expressions blanked), folded to lower case
 * and long forms, each also split at its dots and hyphens ("fly.io" → fly.io, fly, io) so either
 * side may write a name whole or in parts.
 *
 * @example
 * valueWords("billing-api deploys to Fly.io"); // => ["fly.io", "fly", "io"]
 * valueWords("Alice switched to VS Code");     // => ["vs code", "vs", "code"] (Alice starts the sentence)
 */
export function valueWords(text: string): string[] {
  const found: string[] = [];
  // Addresses and identifiers are values whole: "s3://acme-exports", "~/code/site", "features_prod".
  const plain = text.replace(IDENTIFIER, (identifier) => {
    found.push(identifier.toLowerCase().replace(/[.,;:]+$/u, ""));
    return " ".repeat(identifier.length);
  });
  // Consecutive value words separated by spaces only are one value too: "VS Code", "Google Cloud".
  let pending: string[] = [];
  let lastEnd = 0;
  const flush = () => {
    if (pending.length > 1) found.push(fold(pending.join(" ")));
    pending = [];
  };
  for (const match of plain.matchAll(TOKEN)) {
    const word = match[0];
    const start = startsSentence(plain, match.index ?? 0);
    const shaped = /[.+#\d]/u.test(word.slice(1)) && /\p{L}/u.test(word);
    const capitalised = /\p{Lu}/u.test(word) && !start;
    const gap = pending.length > 0 && !/^\s+$/u.test(plain.slice(lastEnd, match.index));
    if (gap) flush();
    if (shaped || capitalised) {
      found.push(fold(word));
      pending.push(word);
    } else flush();
    lastEnd = (match.index ?? 0) + word.length;
  }
  flush();
  return [...new Set(found.flatMap(withParts))];
}

/**
 * A word with its common short form folded to the long one ("k8s" → "kubernetes"), lower case.
 *
 * @example
 * foldShortForm("K8s"); // => "kubernetes"
 */
export function foldShortForm(word: string): string {
  return fold(word);
}

/** Short forms that are also English words ("win"), left as written in running text. */
const ALSO_WORDS: ReadonlySet<string> = new Set(["win", "es", "st"]);
const SHORT_FORM = new RegExp(
  String.raw`(?<![\p{L}\p{N}.])(?:${Object.keys(SHORT_FORMS)
    .filter((form) => !ALSO_WORDS.has(form))
    .map((form) => form.replace(/[.+]/gu, "\\$&"))
    .join("|")})(?![\p{L}\p{N}]|\.[\p{L}\p{N}])`,
  "giu",
);

/**
 * The text with its short forms written out ("deploys to k8s" → "deploys to kubernetes"), so the
 * content words of two memories meet whichever form each uses.
 *
 * @example
 * expandShortForms("The payments service runs on k8s"); // => "The payments service runs on kubernetes"
 */
export function expandShortForms(text: string): string {
  return text.replace(SHORT_FORM, (form) => SHORT_FORMS[form.toLowerCase()] ?? form);
}

function fold(word: string): string {
  const lower = word.toLowerCase().replace(/'s$/u, "");
  return SHORT_FORMS[lower] ?? lower;
}

function withParts(word: string): string[] {
  const parts = word.split(/[.\- ]/u).filter((part) => part.length > 0);
  return parts.length > 1 ? [word, ...parts.map(fold)] : [word];
}

/**
 * "Render ≠ AWS" when each side has a value the other never mentions (in any form, as a value or
 * a plain word), undefined when the values agree or one side only adds some.
 *
 * @example
 * // "The deploy target of billing-api is Render" / "billing-api deploys to AWS":
 * valueDifference(a, b); // => "render ≠ aws"
 */
export function valueDifference(
  a: { readonly values: readonly string[]; readonly words: ReadonlySet<string> },
  b: { readonly values: readonly string[]; readonly words: ReadonlySet<string> },
): string | undefined {
  const { onlyA, onlyB } = exclusiveValues(a, b);
  return onlyA.length > 0 && onlyB.length > 0 ? `${onlyA.join(", ")} ≠ ${onlyB.join(", ")}` : undefined;
}

/**
 * The values each side has that the other never mentions, in any form.
 *
 * @example
 * // "Training runs on a g5.xlarge on AWS" / "Training runs on an AWS p3.2xlarge":
 * exclusiveValues(a, b); // => { onlyA: ["g5.xlarge"], onlyB: ["p3.2xlarge"] }
 */
export function exclusiveValues(
  a: { readonly values: readonly string[]; readonly words: ReadonlySet<string> },
  b: { readonly values: readonly string[]; readonly words: ReadonlySet<string> },
): { readonly onlyA: string[]; readonly onlyB: string[] } {
  // An identifier is found in its words too: "`features_prod`" / "features_prod", a path inside a URL.
  const absent = (value: string, other: ReadonlySet<string>) =>
    value.split(" ").some((part) => !other.has(part) && !other.has(SHORT_FORMS[part] ?? part)) &&
    value.split(/[^\p{L}\p{N}]+/u).some((part) => part !== "" && !other.has(part));
  // The words already hold each word's long form beside it (`features.ts`).
  const wordsA = a.words;
  const wordsB = b.words;
  return {
    onlyA: wholeValues(a.values).filter((value) => absent(value, wordsB)),
    onlyB: wholeValues(b.values).filter((value) => absent(value, wordsA)),
  };
}

/** The values as written, without the parts `withParts` added for matching. */
function wholeValues(values: readonly string[]): string[] {
  return values.filter((value) => !values.some((other) => other !== value && splitsInto(other, value)));
}

function splitsInto(whole: string, part: string): boolean {
  return whole.split(/[.\- ]/u).some((piece) => fold(piece) === part) && whole !== part;
}

/**
 * Words that say a fact changed. A memory with one updates an earlier fact; it never merely
 * restates a memory without one. Kept to forms that mean a change in any domain (a tool, a place,
 * a diet, a schedule, an owner). "Since 2018" is not one: it dates a state ("has been vegetarian
 * since 2018" restates "is vegetarian" with a detail), and a differing value beside it is refused
 * as a value.
 */
const CHANGE_CUE = new RegExp(
  [
    // Verbs that end one state and begin another, in any tense: "moved its CI from Jenkins".
    String.raw`switch(?:ed|es|ing)?`,
    String.raw`mov(?:ed|es|ing)`,
    String.raw`migrat(?:ed|es|ing)`,
    String.raw`upgrad(?:ed|es|ing)`,
    String.raw`downgrad(?:ed|es|ing)`,
    String.raw`replac(?:ed|es|ing)`,
    String.raw`swapp(?:ed|ing)`,
    String.raw`chang(?:ed|es|ing) (?:to|from|over)`,
    String.raw`transition(?:ed|ing) (?:to|from)`,
    String.raw`convert(?:ed|ing) (?:to|from)`,
    "sold",
    "bec(?:ame|omes?)",
    // "Turned 30", "turned into"; "turned on" / "turned off" is a state, not a change.
    "turned(?= \\d| into)",
    "took up",
    "ditched",
    "abandoned",
    "stopped",
    "started",
    "began",
    "begun",
    "quit",
    "gave up",
    // Words that date a state against an earlier one.
    "no longer",
    String.raw`not any ?more`,
    String.raw`any ?more`,
    "used to",
    "formerly",
    "previously",
    "these days",
    "nowadays",
    "recently",
    "lately",
    "no more",
    // "Now" contrasts with before, except where it means "at the moment" or "so far".
    String.raw`(?<!\b(?:right|for|by|until|till|just|up to) )now(?! and then| that\b)`,
    String.raw`(?:was|were|got|has been|have been) (?:removed|dropped|retired|deprecated|decommissioned|renamed|sold)`,
  ]
    .map((cue) => String.raw`\b${cue}\b`)
    .join("|"),
  "iu",
);

/**
 * The change cue in `text`, lower case, or undefined.
 *
 * @example
 * changeCue("Alice switched to VS Code"); // => "switched"
 * changeCue("Alice uses Neovim");         // => undefined
 */
export function changeCue(text: string): string | undefined {
  const cue = CHANGE_CUE.exec(text)?.[0].toLowerCase();
  // "Began" is "started": a fact beginning, the same cue whichever verb says it.
  return cue === "began" || cue === "begun" ? "started" : cue;
}
