/**
 * Claim rules about systems: where a component is deployed, which version of something it runs,
 * which tool of a kind someone prefers, and plain single-valued settings (region, time zone).
 *
 * @module
 */

import { readSubject, readValue } from "./claim-parts.js";
import { alternation, type ClaimRule, claim, firstMatch } from "./claim-template.js";
import { TOOL_NOUNS, toolKind, VALUE_ALIASES } from "./claim-vocabulary.js";
import { ENVIRONMENTS } from "./lexicon.js";

/**
 * Deploy target: "billing-api deploys to Fly.io", "the docs site is hosted on Netlify", "we deploy
 * billing-api to AWS". An environment is not a target ("deploys the web app to staging" says where
 * in the pipeline, and an app goes to staging and production alike).
 */
const deployTarget: ClaimRule = {
  id: "deploy-target",
  trigger: /\b(?:deploy|deploys|deployed|hosted|ships|shipped)\b/u,
  read: (sentence) =>
    firstMatch(
      sentence,
      [
        /^(?<s>.+?) (?:is |are |gets |get )?(?:deploys|deploy|deployed|hosted|ships|shipped) (?:to|on|at) (?<v>.+)$/u,
        /^(?<actor>.+?) (?:deploys|deploy) (?<s>.+?) to (?<v>.+)$/u,
      ],
      (g) => {
        const value = readValue(g.v ?? "");
        if (value === undefined || ENVIRONMENTS[value.key] !== undefined) return [];
        return claim("deploy target", readSubject(g.s ?? ""), value);
      },
    ),
};

const KNOWN_COMPONENTS =
  "node\\.js|nodejs|node|python|java|ruby|php|go|postgres|postgresql|redis|react|ubuntu|debian|terraform|kotlin|swift|rust|typescript";
const COMPONENT = String.raw`(?<c>${KNOWN_COMPONENTS}|\p{Lu}[\p{L}\p{N}.+#\-]*(?: \p{Lu}[\p{L}\p{N}.+#\-]*)?)`;
const USE_VERB =
  "runs on|run on|runs|run|uses|use|is on|are on|is running|are running|is pinned to|are pinned to|was upgraded to|were upgraded to|upgraded to|is built with|are built with|requires|require|needs|need|targets|target|is|are";
const VERSION = String.raw`v?(?<v>\d+(?:\.\d+)*)(?![\p{L}\p{N}]|\.\d)`;

/**
 * Version of one component for one owner: "invoice-worker runs on Node 20", "the analytics
 * database is PostgreSQL 16", "the staging Redis runs version 7.2". A use verb must come first, so
 * a release note ("lucid-memory 1.2.3 fixed the crash") is not read as what something runs.
 */
const version: ClaimRule = {
  id: "version",
  trigger: /\d/u,
  read: (sentence) =>
    firstMatch(
      sentence,
      [
        new RegExp(`^(?<s>.+?) (?:${USE_VERB}) ${COMPONENT} ${VERSION}(?<rest>.*)$`, "u"),
        new RegExp(
          `^(?<s>.+?) ${COMPONENT} (?:runs|uses|is on|is at|is running) version ${VERSION}(?<rest>.*)$`,
          "u",
        ),
      ],
      (g) => {
        const component = (g.c ?? "").toLowerCase();
        // "runs on Node 18 and was upgraded to Node 20": which one holds now is not for a template to guess.
        if (new RegExp(String.raw`\b${escapeRegExp(g.c ?? "")} v?\d`, "iu").test(g.rest ?? "")) return [];
        const canonical = VALUE_ALIASES[component] ?? component;
        const value = { key: g.v ?? "", text: `${g.c} ${g.v}`, rest: g.rest ?? "" };
        return claim(`${canonical} version`, readSubject(g.s ?? ""), value, `${g.c} version`);
      },
    ),
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, "\\$&");
}

const TOOL_NOUN = alternation(Object.keys(TOOL_NOUNS));
const PREFERRING = "preferred|favourite|favorite|go-to|usual";
const STANDARD = "default|main|primary";

/** "preferred editor" for a tool noun; "favourite colour", "default branch" for anything else. */
function preferenceAttribute(adjective: string | undefined, noun: string): string | undefined {
  const tool = TOOL_NOUNS[noun];
  if (tool !== undefined) return `preferred ${tool}`;
  if (adjective === undefined) return undefined;
  return new RegExp(`^(?:${PREFERRING})$`, "u").test(adjective)
    ? `favourite ${noun}`
    : `${adjective} ${noun}`;
}

/**
 * Preferences with one value at a time: "User's preferred editor is VS Code", "Maria's favourite
 * colour is green", "Li Wei's editor of choice is Neovim", "User uses zsh as the default shell",
 * "the team's default branch is trunk", and "prefers/uses X" when X is a known tool of one kind
 * (editor, shell, browser, package manager, test runner, terminal, indentation, theme). "Prefers
 * window seats" names no kind and is left alone: preferences in general are not exclusive.
 */
const preference: ClaimRule = {
  id: "preference",
  trigger:
    /\b(?:prefers?|likes to use|uses?|switched to|of choice|preferred|favou?rite|go-to|usual|default|main|primary|editor|ide|shell|browser|manager|runner|terminal)\b/u,
  read: (sentence) =>
    firstMatch(
      sentence,
      [
        new RegExp(
          String.raw`^(?<s>.+?)'s (?<adj>${PREFERRING}|${STANDARD}) (?<n>[a-z][a-z \-]*?) is (?<v>.+)$`,
          "u",
        ),
        /^(?<s>.+?)'s (?<n>[a-z][a-z ]*?) of choice is (?<v>.+)$/u,
        new RegExp(`^(?<s>.+?)'s (?<n>${TOOL_NOUN}) is (?<v>.+)$`, "u"),
        new RegExp(
          String.raw`^(?<s>.+?) (?:uses|use) (?<v>.+?) as (?:the |their |his |her |its |a |an )?(?:(?<adj>${PREFERRING}|${STANDARD}) )?(?<n>${TOOL_NOUN}|[a-z]+)(?: (?:for|in|on|at|when)\b.*)?$`,
          "u",
        ),
        /^(?<s>.+?) (?:prefers|prefer|likes to use|mostly uses|always uses|uses|use|has switched to|switched to) (?<v>.+)$/u,
      ],
      (g) => {
        const value = readValue(g.v ?? "");
        if (value === undefined) return [];
        const noun = g.n;
        const attribute =
          noun === undefined
            ? kindAttribute(value.key)
            : preferenceAttribute(
                g.adj ?? (sentence.includes(" of choice ") ? "preferred" : undefined),
                noun,
              );
        return attribute === undefined ? [] : claim(attribute, readSubject(g.s ?? ""), value);
      },
    ),
};

function kindAttribute(value: string): string | undefined {
  const kind = toolKind(value);
  return kind === undefined ? undefined : `preferred ${kind}`;
}

const ATTRIBUTES: Readonly<Record<string, string>> = {
  region: "region",
  "time zone": "time zone",
  timezone: "time zone",
  hometown: "hometown",
  "home town": "hometown",
  "blood type": "blood type",
};

/** Plain single-valued attributes: "the primary database region is eu-west-1", "User's time zone is CET". */
const attribute: ClaimRule = {
  id: "attribute",
  trigger: /\b(?:region|time ?zone|home ?town|blood type)\b/u,
  read: (sentence) =>
    firstMatch(
      sentence,
      [new RegExp(`^(?<s>.+?)(?:'s)? (?<n>${alternation(Object.keys(ATTRIBUTES))}) is (?<v>.+)$`, "u")],
      (g) => claim(ATTRIBUTES[g.n ?? ""] ?? "", readSubject(g.s ?? ""), readValue(g.v ?? "")),
    ),
};

/** The rules about systems, in the order their claims are listed. */
export const SYSTEM_RULES: readonly ClaimRule[] = [deployTarget, version, preference, attribute];
