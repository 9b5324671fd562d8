import { describe, expect, it } from "vitest";
import { isLikelyVerb, thirdPersonVerb } from "../../src/text/english-verbs.js";
import { toThirdPerson } from "../../src/text/person.js";

describe("toThirdPerson", () => {
  it.each([
    ["I prefer tabs", "User prefers tabs"],
    ["I prefer tabs and use Vim for my dotfiles.", "User prefers tabs and uses Vim for their dotfiles."],
    [
      "I keep my bike in the shed. My car is outside.",
      "User keeps their bike in the shed. User's car is outside.",
    ],
    ["Alice and I share my car", "Alice and the user share the user's car"],
    ["The bike is mine, I think", "The bike is the user's, the user thinks"],
    ["I'm allergic to peanuts", "User is allergic to peanuts"],
    ["I’ve lived in Berlin since 2019", "User has lived in Berlin since 2019"],
    ["I'll review PRs on Mondays", "User will review PRs on Mondays"],
    ["I'd like a reminder", "User would like a reminder"],
    ["I'd moved to Paris before 2020", "User had moved to Paris before 2020"],
    ["I really like TypeScript", "User really likes TypeScript"],
    ["I don't drink coffee", "User doesn't drink coffee"],
    ["I am not a morning person", "User is not a morning person"],
    ["I study Rust and teach myself Go", "User studies Rust and teaches themselves Go"],
    ["I watch F1 races and go hiking.", "User watches F1 races and goes hiking."],
    ["My sister lives in Lyon", "User's sister lives in Lyon"],
    ["Send me the weekly report", "Send the user the weekly report"],
    ["Alice and I prefer Thai food", "Alice and the user prefer Thai food"],
    ["I no longer eat meat.", "User no longer eats meat."],
    ["I hardly ever drink coffee", "User hardly ever drinks coffee"],
    ["I rely on Postgres", "User relies on Postgres"],
    ["My wife and I live in Porto", "User's wife and the user live in Porto"],
    ["My name is Ana Lima and I live in Porto.", "User's name is Ana Lima and the user lives in Porto."],
    [
      "I met Bob in 2019, and I still work with him",
      "User met Bob in 2019, and the user still works with him",
    ],
    ["Yesterday I went to Rome", "Yesterday the user went to Rome"],
    ["i prefer dark mode", "User prefers dark mode"],
    ["Tests pass. I usually run them twice.", "Tests pass. User usually runs them twice."],
  ])("%j → %j", (input, output) => {
    expect(toThirdPerson(input).text).toBe(output);
  });

  it.each([
    "User prefers tabs",
    "Type I diabetes runs in the family",
    "Part I covers setup",
    "I/O bound jobs run on the worker pool",
    'User\'s motto is "I never give up"',
    "Run `I=1 make` to build",
    "Use i.e. and e.g. sparingly",
    "We deploy on Fridays",
  ])("leaves %j alone", (input) => {
    expect(toThirdPerson(input)).toEqual({ text: input, replaced: [] });
  });

  it("lists what it replaced", () => {
    expect(toThirdPerson("I told my manager about me").replaced).toEqual(["i", "my", "me"]);
  });
});

describe("verbs", () => {
  it.each([
    ["prefer", "prefers"],
    ["study", "studies"],
    ["watch", "watches"],
    ["go", "goes"],
    ["have", "has"],
    ["play", "plays"],
    ["moved", "moved"],
    ["can", "can"],
    ["went", "went"],
  ])("%s → %s", (base, third) => {
    expect(thirdPersonVerb(base)).toBe(third);
  });

  it("recognises likely verbs", () => {
    expect(isLikelyVerb("went")).toBe(true);
    expect(isLikelyVerb("diabetes")).toBe(false);
  });
});
