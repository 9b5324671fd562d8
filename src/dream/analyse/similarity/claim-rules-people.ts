/**
 * Claim rules about people: who holds a one-person role, where someone lives, who employs them,
 * their occupation and their diet.
 *
 * @module
 */

import { readSubject, readValue } from "./claim-parts.js";
import { alternation, type ClaimRule, claim, firstMatch } from "./claim-template.js";
import { DIET_FOODS, OCCUPATIONS, SINGLE_ROLES } from "./claim-vocabulary.js";

const ROLE = alternation(Object.keys(SINGLE_ROLES));
const IDENTIFIER = /^[a-z0-9]+(?:[-_][a-z0-9]+)+$/u;

/**
 * Who holds a role one person holds at a time (manager, lead, owner, CEO/CTO, spouse, landlord):
 * "Alice's manager is Priya", "Priya is Alice's manager", "Priya is the tech lead of the payments
 * team", "Alice reports to Priya", "Priya manages the payments team", "ledger-export is owned by
 * the data team". Sisters, friends and reports are many and never read. "X owns Y" only counts for
 * a component (an identifier) or a team owner: "Maria owns a Toyota" is not a role.
 */
const role: ClaimRule = {
  id: "role",
  trigger: /\b(?:is|reports?|manages|leads|owns|maintains)\b/u,
  read: (sentence) =>
    firstMatch(
      sentence,
      [
        new RegExp(`^(?<s>.+?)'s (?<r>${ROLE}) is (?<v>.+)$`, "iu"),
        new RegExp(`^(?<v>.+?) is (?<s>.+?)'s (?<r>${ROLE})$`, "iu"),
        new RegExp(`^(?<v>.+?) is the (?<r>${ROLE}) (?:of|for|on) (?<s>.+)$`, "iu"),
        /^(?<s>.+?) (?:reports|report) to (?<v>.+)$/u,
        /^(?<v>.+?) manages (?!to )(?<s>.+)$/u,
        /^(?<v>.+?) leads (?<s>.+)$/u,
        /^(?<s>.+?) is (?:owned|maintained) by (?<v>.+)$/u,
        /^(?<v>.+?) (?:owns|maintains) (?<s>.+)$/u,
        /^(?<s>.+?) is married to (?<v>.+)$/u,
      ],
      (g) => {
        const roleName = roleOf(g.r, sentence);
        const subject = readSubject((g.s ?? "").replace(/^the /iu, ""));
        const value = readValue(g.v ?? "");
        if (roleName === "owner" && g.r === undefined) {
          const owned = (g.s ?? "").trim();
          if (!IDENTIFIER.test(owned) && !/\bteam\b/iu.test(g.v ?? "")) return [];
        }
        return claim(roleName, subject, value);
      },
    ),
};

function roleOf(written: string | undefined, sentence: string): string {
  if (written !== undefined) return SINGLE_ROLES[written.toLowerCase()] ?? written.toLowerCase();
  if (/ (?:reports|report) to | manages /u.test(sentence)) return "manager";
  if (/ leads /u.test(sentence)) return "lead";
  if (/ married to /u.test(sentence)) return "spouse";
  return "owner";
}

/**
 * City of residence: "Maria lives in Lisbon", "moved to Singapore in 2025", "is based in Berlin".
 * The place must be capitalised: "lives in a flat" and "dotfiles live in github.com/…" are not
 * cities. A city and its country ("Lisbon" vs "Portugal") would wrongly disagree; see the report.
 */
const residence: ClaimRule = {
  id: "residence",
  trigger: /\b(?:lives?|living|resides?|based|moved|relocated)\b/u,
  read: (sentence) =>
    firstMatch(
      sentence,
      [
        /^(?<s>.+?) (?:lives|live|is living|resides|reside|is based|are based|has moved|moved|relocated|has relocated) (?:in|to) (?<v>\p{Lu}.*)$/u,
      ],
      (g) => claim("city of residence", readSubject(g.s ?? ""), readValue(g.v ?? "")),
    ),
};

/**
 * Employer: "User works at Shopify", "Li Wei works for Shopee". Past tense ("worked at") is
 * history, not a claim.
 */
const employer: ClaimRule = {
  id: "employer",
  trigger: /\b(?:works?|working|worked)\b/u,
  read: (sentence) =>
    firstMatch(
      sentence,
      [/^(?<s>.+?) (?:works|work|is working|has worked|has been working) (?:at|for) (?<v>\p{Lu}.*)$/u],
      (g) => claim("employer", readSubject(g.s ?? ""), readValue(g.v ?? "")),
    ),
};

const OCCUPATION = alternation(OCCUPATIONS);

/**
 * Occupation: "Maria works as a pharmacist", "Alex is a physiotherapist" (for "is a", known
 * occupations only: "is a golden retriever" is not a job).
 */
const occupation: ClaimRule = {
  id: "occupation",
  trigger: /\b(?:works as|is an?)\b/u,
  read: (sentence) =>
    firstMatch(
      sentence,
      [
        /^(?<s>.+?) works as (?:a |an )?(?<v>.+)$/u,
        new RegExp(`^(?<s>.+?) is (?:a|an) (?<v>(?:[a-z]+ )?(?:${OCCUPATION}))$`, "u"),
      ],
      (g) => claim("occupation", readSubject(g.s ?? ""), readValue(g.v ?? "")),
    ),
};

/**
 * Diet: "Maria is vegetarian", "Jonas eats steak every Friday". Eating a listed meat or fish is a
 * diet; other foods say nothing about one. Which diets exclude each other is in `dietsConflict`.
 */
const diet: ClaimRule = {
  id: "diet",
  trigger: /\b(?:vegan|vegetarian|pesc[ae]tarian|eats?|eating)\b/u,
  read: (sentence) => {
    const label =
      /^(?<s>.+?) (?:is|has been|became|is now|went|turned|has gone) (?:a |an |fully |strictly |now )*(?<v>vegan|vegetarian|pescatarian|pescetarian)\b/u.exec(
        sentence,
      )?.groups;
    if (label !== undefined) {
      const value = readValue(label.v ?? "");
      return claim("diet", readSubject(label.s ?? ""), value);
    }
    const eats =
      /^(?<s>.+?) (?:eats|eat|often eats|regularly eats|loves eating|likes eating) (?<v>.+)$/u.exec(
        sentence,
      )?.groups;
    const food = readValue(eats?.v ?? "");
    const kind = food?.key.split(" ").find((word) => DIET_FOODS[word] !== undefined);
    if (eats === undefined || food === undefined || kind === undefined) return [];
    return claim("diet", readSubject(eats.s ?? ""), {
      key: DIET_FOODS[kind] as string,
      text: food.text,
      rest: food.rest ?? "",
    });
  },
};

/** The rules about people, in the order their claims are listed. */
export const PEOPLE_RULES: readonly ClaimRule[] = [role, residence, employer, occupation, diet];
