import { describe, expect, it } from "vitest";
import { extractEntities } from "../../src/text/entities.js";

// Lower-case sentences keep the proper-noun pass out of the way, so each case shows one rule.
function summary(text: string): string[] {
  return extractEntities(text).map((entity) => `${entity.type}:${entity.name}`);
}

describe("paths", () => {
  it.each([
    ["edit /etc/nginx.conf now", ["path:/etc/nginx.conf"]],
    ["see /usr/local/bin.", ["path:/usr/local/bin"]],
    ["config lives in ~/.lucid/config.json.", ["path:~/.lucid/config.json"]],
    ["run ./scripts/build.sh and ../lib", ["path:./scripts/build.sh", "path:../lib"]],
    ["open src/app.ts and test/text/", ["path:src/app.ts", "path:test/text/"]],
    ["copy C:\\foo\\bar to d:\\backup.", ["path:C:\\foo\\bar", "path:d:\\backup"]],
    [
      "check config.json, README.md and vite.config.ts",
      ["path:config.json", "path:README.md", "path:vite.config.ts"],
    ],
    ["add it to .env and .gitignore", ["path:.env", "path:.gitignore"]],
  ])("%s", (text, expected) => {
    expect(summary(text)).toEqual(expected);
  });

  it.each([
    ["and/or"],
    ["tcp/ip"],
    ["open 24/7"],
    ["on 7/5/2023"],
    ["type /help for commands"],
    ["e.g. this, i.e. that, u.s.c."],
  ])("%s is not a path", (text) => {
    expect(summary(text)).toEqual([]);
  });
});

describe("packages and versions", () => {
  it.each([
    ["install lodash@4.17.21.", ["package:lodash", "version:4.17.21"]],
    [
      "uses @types/node and @scope/name@^1.2.0",
      ["package:@types/node", "package:@scope/name", "version:1.2.0"],
    ],
    ["pinned requests==2.31.0", ["package:requests", "version:2.31.0"]],
    ["upgrade to react@18", ["package:react", "version:18"]],
    ["released v2 then v1.2.3-beta.1", ["version:v2", "version:v1.2.3-beta.1"]],
    ["sqlite 3.45.1 is bundled", ["version:3.45.1"]],
  ])("%s", (text, expected) => {
    expect(summary(text)).toEqual(expected);
  });

  it.each([
    ["python 3.11 took 3.5 hours and cost $4.99"],
    ["born on 07.05.2023"],
    ["write to caroline@example.com"],
  ])("%s has no version", (text) => {
    expect(summary(text).filter((entity) => entity.startsWith("version:"))).toEqual([]);
  });
});

describe("urls", () => {
  it.each([
    ["docs at https://example.com/docs?page=2.", ["url:https://example.com/docs?page=2"]],
    ["(see https://en.wikipedia.org/wiki/Foo_(bar))", ["url:https://en.wikipedia.org/wiki/Foo_(bar)"]],
    ["hosted on example.com and api.acme.co.uk/v1", ["url:example.com", "url:api.acme.co.uk/v1"]],
    ["server at 192.168.1.10:8080 and localhost:3000", ["url:192.168.1.10:8080", "url:localhost:3000"]],
  ])("%s", (text, expected) => {
    expect(summary(text)).toEqual(expected);
  });

  it.each([["done.it works"], ["the ip 999.1.1.1 is invalid"], ["just localhost"]])(
    "%s has no url",
    (text) => {
      expect(summary(text).filter((entity) => entity.startsWith("url:"))).toEqual([]);
    },
  );
});

describe("identifiers", () => {
  it.each([
    ["filter by user_id", ["identifier:user_id"]],
    ["call getUserById()", ["identifier:getUserById"]],
    ["set MAX_RETRIES to 5", ["identifier:MAX_RETRIES"]],
    ["the lucid-memory repo uses better-sqlite3", ["identifier:lucid-memory", "identifier:better-sqlite3"]],
    ["obj.camelCase and __private_field", ["identifier:camelCase", "identifier:__private_field"]],
  ])("%s", (text, expected) => {
    expect(summary(text)).toEqual(expected);
  });

  it.each([
    ["a long-term, well-known, user-friendly plan"],
    ["a follow-up on the state-of-the-art e-mail"],
    ["decision-making for open-minded people"],
    ["on 2023-05-07"],
  ])("%s is everyday English, not identifiers", (text) => {
    expect(summary(text)).toEqual([]);
  });
});

describe("quoted text", () => {
  it.each([
    ['read "becoming nicole" twice', ["quoted:becoming nicole"]],
    ["loves 'dune' and “the hobbit”", ["quoted:dune", "quoted:the hobbit"]],
    ['said "hi" and "bye"', ["quoted:hi", "quoted:bye"]],
    ["loves 'harry potter and the philosopher's stone'", ["quoted:harry potter and the philosopher's stone"]],
    // A quoted identifier keeps its technical type; the quotes add nothing.
    ['set "max_retries" to 5', ["identifier:max_retries"]],
  ])("%s", (text, expected) => {
    expect(summary(text)).toEqual(expected);
  });

  it.each([
    ["caroline's and the kids' toys"],
    ['a 6" screen and 5" phone'],
    ['one "x" letter'],
    [`"${"a".repeat(80)}"`],
  ])("%s has no quoted entity", (text) => {
    expect(summary(text).filter((entity) => entity.startsWith("quoted:"))).toEqual([]);
  });
});
