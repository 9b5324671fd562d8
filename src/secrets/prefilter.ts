/**
 * The prefilter: which rules can possibly match a text, decided by one pass of a combined keyword
 * pattern over the lower-cased text instead of one regular expression per rule. Most memories
 * hold none of the keywords, so most rules never run.
 *
 * @module
 */

import { escapeRegExp } from "./rules/shape.js";

export interface Prefilter {
  /** One flag per rule, in the order given to `createPrefilter`: 1 when the rule should run. */
  rulesToRun(text: string): Uint8Array;
}

/**
 * Builds the prefilter for rules with the given keyword lists (lower-case literals; an empty list
 * means the rule always runs).
 *
 * @example
 * const prefilter = createPrefilter([["ghp_"], ["password"], []]);
 * prefilter.rulesToRun("my Password is …"); // Uint8Array [0, 1, 1]
 */
export function createPrefilter(keywordsPerRule: readonly (readonly string[])[]): Prefilter {
  const keywords = [...new Set(keywordsPerRule.flat())];
  const rulesByKeyword = new Map<string, number[]>(keywords.map((keyword) => [keyword, []]));
  keywordsPerRule.forEach((list, rule) => {
    for (const keyword of list) rulesByKeyword.get(keyword)?.push(rule);
  });
  // An alternation reports one keyword per position (the longest, as they are sorted so), so a
  // match also stands for every keyword that is a prefix of it: `sk-ant-` implies `sk-`.
  const rulesByMatch = new Map(
    keywords.map((keyword) => [
      keyword,
      [
        ...new Set(
          keywords
            .filter((other) => keyword.startsWith(other))
            .flatMap((other) => rulesByKeyword.get(other) ?? []),
        ),
      ],
    ]),
  );
  const always = new Uint8Array(keywordsPerRule.length);
  keywordsPerRule.forEach((list, rule) => {
    if (list.length === 0) always[rule] = 1;
  });
  const pattern =
    keywords.length === 0
      ? undefined
      : new RegExp(
          [...keywords]
            .sort((a, b) => b.length - a.length)
            .map(escapeRegExp)
            .join("|"),
          "g",
        );

  return {
    rulesToRun(text) {
      const flags = always.slice();
      if (pattern === undefined) return flags;
      const lower = text.toLowerCase();
      pattern.lastIndex = 0;
      for (let match = pattern.exec(lower); match !== null; match = pattern.exec(lower)) {
        for (const rule of rulesByMatch.get(match[0]) ?? []) flags[rule] = 1;
        // Resume one character on, so keywords overlapping this one are seen too.
        pattern.lastIndex = match.index + 1;
      }
      return flags;
    },
  };
}
