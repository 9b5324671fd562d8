/**
 * Triage's cue words: closed classes that name kinds of statement (liking, deciding, kinship,
 * settings, time, hedging) and the words that say nothing (fillers, small talk), not phrasings of
 * particular facts. The grammar of each sentence does the rest (`triage-sentence.ts`).
 *
 * @module
 */

const words = (list: string) => new Set(list.split(/\s+/u));

/** Words that open a sentence without saying anything: "oh, and", "btw", "ok so". */
export const FILLERS = words(
  "oh ok okay so and also btw anyway anyways well alright right hey hi hello yeah yes yep no nope sure " +
    "actually fyi cool great nice awesome perfect thanks thank um uh hmm ah",
);
export const FILLER_PHRASES = [
  ["by", "the", "way"],
  ["just", "so", "you", "know"],
  ["for", "the", "record"],
  ["for", "context"],
  ["for", "reference"],
  ["quick", "note"],
  ["one", "more", "thing"],
];

/** Nouns of greeting, thanks and assent: "good morning", "no worries", "makes sense". */
export const SMALL_TALK_NOUNS = words(
  "thanks thank morning night evening afternoon day weekend lol haha hahaha problem worries sense " +
    "point idea job work luck bye cheers welcome pleasure deal thing way lot bit",
);
export const SMALL_TALK_ADJECTIVES = words(
  "good great fine ok okay sure done ready glad happy sorry nice cool awesome perfect right correct true wrong clear",
);

export const QUESTION_WORDS = words("what why how when where which who whom whose");
export const WONDERING = words("wonder wondering curious");
export const KNOWING = words("know ask sure idea tell check find");
export const CLAUSE_OPENERS = words("if whether what why how when where which who");

export const STANDING = words("always never whenever");
export const STANDING_PHRASES = [
  ["from", "now", "on"],
  ["going", "forward"],
  ["in", "future"],
  ["in", "the", "future"],
  ["every", "time"],
  ["each", "time"],
  ["by", "default"],
  ["at", "all", "times"],
  ["no", "matter", "what"],
  ["as", "a", "rule"],
];
export const OBLIGATION = words("must should");

export const HEDGES = words("maybe perhaps possibly probably might someday hopefully wish considering");
export const HEDGE_PHRASES = [
  ["thinking", "about"],
  ["thinking", "of"],
  ["not", "sure"],
  ["some", "day"],
  ["one", "day"],
  ["i", "guess"],
  ["would", "be", "nice"],
  ["at", "some", "point"],
];

/** When the statement is about now, not in general: "right now", "yesterday", "this morning". */
// Not "now" or "currently": "I now live in Berlin" and "I currently work at Acme" are news, not moods.
export const MOMENT = words("today tonight yesterday brb earlier lately");
export const MOMENT_PHRASES = [
  ["right", "now"],
  ["at", "the", "moment"],
  ["for", "now"],
  ["this", "morning"],
  ["this", "afternoon"],
  ["this", "evening"],
  ["this", "week"],
  ["this", "weekend"],
  ["last", "night"],
  ["last", "week"],
  ["be", "right", "back"],
  ["in", "a", "minute"],
];
/** How someone is at the moment. */
export const PASSING_STATES = words(
  "tired hungry sleepy busy bored stressed sick exhausted late away back off online offline afk annoyed frustrated",
);
/** What a process is doing: "the build is running". */
export const PROCESS_VERBS = words(
  "running building compiling deploying loading downloading installing uploading waiting failing restarting " +
    "crashing hanging rebooting syncing updating processing",
);

export const DECIDING = words(
  "decide decided decision agreed agree chose chosen choose picked settled opted switched switching adopted " +
    "standardized standardised committed finalized finalised",
);
/** "let's go with", "we'll use", "we're sticking with": a choice made, verb + particle. */
export const CHOOSING = words("go going use using stick sticking keep pick choose switch adopt settle");
export const LIKING = words(
  "like likes liked love loves loved prefer prefers preferred enjoy enjoys hate hates hated dislike " +
    "dislikes detest adore favourite favorite fond fan rather",
);
export const BEING = words("am 'm was");
export const SELF_FACTS = words(
  "live lived work worked born grew speak speaks study studied moved name job role profession " +
    "allergic vegetarian vegan diabetic married single retired",
);
export const PEOPLE = words(
  "sister brother wife husband partner girlfriend boyfriend fiance fiancee mom mum mother dad father " +
    "parents son daughter kid kids child children baby friend friends colleague colleagues coworker " +
    "coworkers boss manager teammate teammates neighbour neighbor cousin aunt uncle grandma grandpa " +
    "grandmother grandfather niece nephew dog cat pet roommate landlord client customer team family",
);
export const SETTINGS = words(
  "port host hostname url endpoint config configuration configured setting settings env environment " +
    "variable path directory folder ip dns ssh wifi password key token region timezone domain " +
    "address proxy credentials account username email bucket cluster namespace",
);
export const PROJECT_WORDS = words(
  "project repo repository app application product launch release deadline milestone sprint roadmap " +
    "client feature website site startup company business",
);

/** Determiners that open a verb's object ("review this patch"); not quantifiers ("no sugar", "every day"). */
export const OBJECT_DETERMINERS = words("the a an this that these those my your our his her its their");
