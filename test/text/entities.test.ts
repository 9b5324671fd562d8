import { describe, expect, it } from "vitest";
import { ENTITY_TYPES, type Entity, extractEntities } from "../../src/text/entities.js";

/** `type:name` per entity, in order: compact enough to read a whole sentence's result at once. */
function summary(text: string): string[] {
  return extractEntities(text).map((entity) => `${entity.type}:${entity.name}`);
}

describe("extractEntities on memory sentences", () => {
  it.each([
    [
      "Caroline went to the LGBTQ support group in Boston on 7 May 2023",
      ["name:Caroline", "name:LGBTQ", "name:Boston"],
    ],
    [
      "User's project lucid-memory uses better-sqlite3@12.11.1 and lives in ~/code/lucid",
      ["identifier:lucid-memory", "package:better-sqlite3", "version:12.11.1", "path:~/code/lucid"],
    ],
    ['Melanie read "Becoming Nicole" last week', ["name:Melanie", "quoted:Becoming Nicole"]],
    ["Deploy target for billing-api is production on AWS", ["identifier:billing-api", "name:AWS"]],
    // Nothing here is specific enough to link memories by: common nouns are the embedder's job.
    ["I prefer tabs over spaces", []],
    ["Assistant suggested moving to New York.", ["name:New York"]],
    ["Caroline’s sister lives in San Francisco.", ["name:Caroline", "name:San Francisco"]],
    ["Mr. Smith and Dr Jane Doe met at Shopify.", ["name:Smith", "name:Jane Doe", "name:Shopify"]],
    [
      "Yesterday Caroline met Jane at the University of Michigan.",
      ["name:Caroline", "name:Jane", "name:University of Michigan"],
    ],
    ["Jean-Luc drinks Coca-Cola.", ["name:Jean-Luc", "name:Coca-Cola"]],
    ["The user's dog is named Max 🐶 and they love 'Dune'.", ["name:Max", "quoted:Dune"]],
    [
      "Prefers dark mode in VS Code and uses Node.js v20.1.0",
      ["name:VS Code", "name:Node.js", "version:v20.1.0"],
    ],
    ["Long-term goal: a well-known, user-friendly tool.", []],
  ])("%s", (text, expected) => {
    expect(summary(text)).toEqual(expected);
  });
});

describe("extractEntities keys", () => {
  it("lower-cases and collapses whitespace", () => {
    expect(extractEntities("Moved to New   York")).toEqual([
      { name: "New York", key: "new york", type: "name" },
    ]);
  });

  it("drops a proper noun's possessive from name and key", () => {
    expect(extractEntities("James' car and Caroline's book")).toEqual([
      { name: "James", key: "james", type: "name" },
      { name: "Caroline", key: "caroline", type: "name" },
    ]);
  });

  it("matches v1.2.3 and 1.2.3 on one key", () => {
    const keys = [...extractEntities("v1.2.3"), ...extractEntities("1.2.3")].map((entity) => entity.key);
    expect(keys).toEqual(["1.2.3", "1.2.3"]);
  });

  it("deduplicates by key and type, keeping the first spelling", () => {
    expect(summary("Caroline met CAROLINE and caroline_id; CAROLINE_ID too")).toEqual([
      "name:Caroline",
      "identifier:caroline_id",
    ]);
  });

  it("keeps the same key under different types", () => {
    expect(summary('Dune is a planet; "Dune" is a book')).toEqual(["name:Dune", "quoted:Dune"]);
  });
});

describe("extractEntities stop lists", () => {
  it.each([
    ["User likes hiking", []],
    ["Assistant recommended hiking", []],
    ["The meeting is on Tuesday in May", []],
    ["We meet on Mondays, and reviews are in Sept.", []],
    ["Sees Mars from Maine", ["name:Mars", "name:Maine"]],
    ["Favourite food is Pad Thai", ["name:Pad Thai"]],
    ["Thanks Caroline!", ["name:Caroline"]],
  ])("%s", (text, expected) => {
    expect(summary(text)).toEqual(expected);
  });

  it("keeps calendar words inside longer names", () => {
    expect(summary("Theresa May shops on Black Friday")).toEqual(["name:Theresa May", "name:Black Friday"]);
  });

  it("does not join names across a line break", () => {
    expect(summary("Met Caroline\nBoston was cold")).toEqual(["name:Caroline", "name:Boston"]);
  });
});

describe("extractEntities robustness", () => {
  it("returns [] for empty and blank text", () => {
    expect(extractEntities("")).toEqual([]);
    expect(extractEntities(" \n\t ")).toEqual([]);
  });

  it("never returns an entity shorter than two characters", () => {
    expect(summary("A I X Q v 'a' \"b\" /x a-b")).toEqual([]);
  });

  it("only uses declared types and non-empty keys", () => {
    const entities = extractEntities(
      "Caroline's repo @acme/x@1.0.0 at https://acme.dev/x uses user_id in src/a.ts, v2, 'Dune'",
    );
    expect(entities.length).toBeGreaterThan(5);
    for (const entity of entities) {
      expect(ENTITY_TYPES).toContain(entity.type);
      expect(entity.key.length).toBeGreaterThan(0);
    }
  });

  it.each([
    ["emoji", "🐶🐱🦊 👨‍👩‍👧 🇬🇧 Caroline 🎉"],
    ["lone surrogates", "\uD800 Caroline \uDC00 Boston \uD83D"],
    ["control characters", "\u0000\u0001Caroline\u0007\u001b[31mBoston\u007f"],
    ["right-to-left and combining marks", "مرحبا Caroline שלום e\u0301\u0301\u0301 Zalgơ̸̢̤"],
    ["unbalanced punctuation", "(((\"'Caroline''' \"\" '' ``` [[[ /// \\\\ @@ -- __"],
    [
      "a markdown document",
      "# Title\n\n- [x] **Done** `user_id`\n- [ ] _todo_ see [link](https://x.io/a_(b))\n```ts\nconst a = 1;\n```",
    ],
    ["CJK", "用户喜欢東京 and 서울 with Caroline"],
  ])("does not throw on %s", (_label, text) => {
    expect(() => extractEntities(text)).not.toThrow();
  });

  it("does not throw on random code points", () => {
    let seed = 42;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    for (let round = 0; round < 200; round += 1) {
      const length = Math.floor(random() * 80);
      const chars = Array.from({ length }, () => {
        const pick = random();
        if (pick < 0.5) return " aZ.-_/@'\"\\:~v1A"[Math.floor(random() * 16)] ?? "";
        if (pick < 0.8) return String.fromCodePoint(Math.floor(random() * 0x3000));
        return String.fromCharCode(Math.floor(random() * 0x10000));
      });
      expect(() => extractEntities(chars.join(""))).not.toThrow();
    }
  });

  it("handles 32 KB of text quickly, including runs that are slow to tokenise", () => {
    const prose = "Caroline moved to New York and uses billing-api v1.2.3 at src/app.ts. "
      .repeat(500)
      .slice(0, 32_768);
    const nasty = [
      "A-".repeat(16_384),
      "aA".repeat(16_384),
      "x.".repeat(16_384),
      "a_".repeat(16_384),
      "'a ".repeat(10_922),
    ];
    // Backtracking that grew with the input would not finish within the test's timeout; how fast it
    // is belongs to the benchmarks, not here.
    const entities: Entity[] = extractEntities(prose);
    for (const text of nasty) expect(Array.isArray(extractEntities(text))).toBe(true);
    expect(summary(prose.slice(0, 80))).toEqual([
      "name:Caroline",
      "name:New York",
      "identifier:billing-api",
      "version:v1.2.3",
      "path:src/app.ts",
    ]);
    expect(entities.length).toBe(5);
  });

  it("drops matches too long to be a real name, path or URL", () => {
    expect(extractEntities(`/${"a/".repeat(1_000)}b.ts`)).toEqual([]);
  });
});
