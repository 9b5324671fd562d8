import Database from "better-sqlite3";
import { afterAll, describe, expect, it } from "vitest";
import { ftsMatchExpression } from "../../src/store/sqlite/sqlite-fts.js";
import { keywordTerms, MAX_MATCH_TERMS } from "../../src/text/keywords.js";

/** The query path of the SQLite store: keyword terms, then the FTS5 expression. */
const fts = (text: string) => ftsMatchExpression(keywordTerms(text));

import { STOP_WORDS } from "../../src/text/stop-words.js";

describe("keywordTerms", () => {
  it.each([
    ["What does the user's dog eat?", ["user", "dog", "eat"]],
    ["Which editor does the user prefer?", ["editor", "user", "prefer"]],
    ["TypeScript typescript TYPESCRIPT", ["typescript"]],
    ["I don't like O'Brien’s café", ["like", "o'brien", "café"]],
    ["born 7 May 2023 at 10am", ["born", "7", "2023", "10am"]],
    ["a b c x 1", ["1"]],
    ["user_id and getUserById", ["user", "id", "getuserbyid"]],
    ["東京 and 서울 🐶 🎉", ["東京", "서울"]],
    ["what is it?", []],
    ["", []],
  ])("%j → %j", (text, expected) => {
    expect(keywordTerms(text)).toEqual(expected);
  });

  it("removes every stop word, whatever its case", () => {
    expect(keywordTerms([...STOP_WORDS].join(" ").toUpperCase())).toEqual([]);
  });

  it("does not stem: the FTS5 porter tokenizer does", () => {
    expect(keywordTerms("prefers preferred running")).toEqual(["prefers", "preferred", "running"]);
  });
});

describe("ftsMatchExpression", () => {
  it("quotes every term and joins them with OR", () => {
    expect(fts("Which editor does the user prefer?")).toBe('"editor" OR "user" OR "prefer"');
  });

  it("is null when only stop words remain", () => {
    expect(fts("what is it?")).toBeNull();
    expect(fts("  ?! ")).toBeNull();
    expect(fts("")).toBeNull();
  });

  it("treats FTS5 operators in the input as words", () => {
    expect(fts("cats AND dogs NOT NEAR(fish)")).toBe('"cats" OR "dogs" OR "near" OR "fish"');
  });

  it(`uses at most ${MAX_MATCH_TERMS} terms`, () => {
    const text = Array.from({ length: 500 }, (_, i) => `word${i}`).join(" ");
    expect(fts(text)?.split(" OR ")).toHaveLength(MAX_MATCH_TERMS);
  });
});

describe("ftsMatchExpression against a real FTS5 table", () => {
  const db = new Database(":memory:");
  afterAll(() => db.close());
  db.exec("create virtual table docs using fts5(text, tokenize='porter unicode61')");
  const insert = db.prepare("insert into docs(text) values (?)");
  for (const text of [
    "User prefers TypeScript over JavaScript",
    "Caroline went to the LGBTQ support group in Boston",
    "O'Brien's café serves crêpes",
    "Deploy target for billing-api is production",
    "用户 住在 東京",
  ]) {
    insert.run(text);
  }
  const search = db.prepare<[string], { text: string }>(
    "select text from docs where docs match ? order by rank",
  );

  function run(query: string): string[] {
    const expression = fts(query);
    return expression === null ? [] : search.all(expression).map((row) => row.text);
  }

  it.each([
    ["What language does the user prefer?", "User prefers TypeScript over JavaScript"],
    ["support groups", "Caroline went to the LGBTQ support group in Boston"],
    ["o'brien cafe", "O'Brien's café serves crêpes"],
    ["billing-api deploys", "Deploy target for billing-api is production"],
    ["東京", "用户 住在 東京"],
  ])("%j finds %j", (query, expected) => {
    expect(run(query)[0]).toBe(expected);
  });

  const nasty = [
    '"',
    '""',
    '"unterminated',
    'say "hi" to "bob',
    "'single' quotes'",
    "(",
    ")",
    "((a) OR (b",
    "AND",
    "OR",
    "NOT",
    "NEAR",
    "NEAR(a b, 3)",
    "a AND b OR NOT c",
    "foo*",
    "*",
    "* OR *",
    "text:foo",
    "docs:bar",
    ":",
    "-",
    "-foo --bar",
    "^",
    "^start",
    "a + b",
    "{text}: foo",
    "col1 col2 : x",
    "\\",
    "\u0000",
    "\u0000null\u0000byte",
    "e\u0301",
    "\u0301\u0301",
    "🐶",
    "🐶 dog 🐕‍🦺",
    "👨‍👩‍👧",
    "\uD800",
    "\uD800abc\uDFFF",
    "𞄀𞄁𞄂",
    "ÅNGSTRÖM Straße İstanbul",
    "مرحبا שלום",
    "%",
    "_",
    "'; drop table docs; --",
    "SELECT * FROM docs",
    "a".repeat(10_000),
    Array.from({ length: 2_000 }, (_, i) => `w${i}`).join(" "),
  ];

  it.each(nasty.map((text) => [text.length > 40 ? `${text.slice(0, 40)}…` : text, text]))(
    "accepts the expression for %j",
    (_label, text) => {
      const expression = fts(text);
      if (expression !== null) expect(() => search.all(expression)).not.toThrow();
    },
  );

  it("accepts the expression for random strings", () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const alphabet = [
      '"',
      "'",
      "(",
      ")",
      "*",
      ":",
      "-",
      "^",
      "+",
      " ",
      "AND",
      "OR",
      "NOT",
      "NEAR",
      "a",
      "é",
      "🐶",
      "1",
    ];
    for (let round = 0; round < 500; round += 1) {
      const parts = Array.from({ length: 1 + Math.floor(random() * 20) }, () =>
        random() < 0.8
          ? (alphabet[Math.floor(random() * alphabet.length)] ?? "")
          : String.fromCharCode(Math.floor(random() * 0x10000)),
      );
      const expression = fts(parts.join(random() < 0.5 ? " " : ""));
      if (expression !== null) expect(() => search.all(expression)).not.toThrow();
    }
  });
});
