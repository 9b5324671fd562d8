import { readFileSync, writeFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { ALLOW_RULES, BUILTIN_RULES, FIELD_ALLOW_RULES } from "../../src/secrets/index.js";
import { END_MARKER, renderCatalogue, START_MARKER } from "./render-docs.js";

const DOC = new URL("../../docs/secrets.md", import.meta.url);

/** Table rows with cells trimmed and separator rows reduced, so Biome's column padding does not matter. */
function normaliseTables(markdown: string): string {
  return markdown
    .split("\n")
    .map((line) =>
      line.startsWith("|")
        ? line
            .split(/(?<!\\)\|/)
            .map((cell) => cell.trim().replace(/^-{3,}$/, "---"))
            .join("|")
        : line,
    )
    .join("\n");
}

describe("docs/secrets.md", () => {
  it("carries the catalogue as generated from the rules' reasons", () => {
    const doc = readFileSync(DOC, "utf8");
    const start = doc.indexOf(START_MARKER);
    const end = doc.indexOf(END_MARKER) + END_MARKER.length;
    expect(start).toBeGreaterThan(0);
    const rendered = renderCatalogue();
    if (process.env.LUCID_UPDATE_DOCS === "1") {
      writeFileSync(DOC, doc.slice(0, start) + rendered + doc.slice(end));
      return;
    }
    // Out of date? Run: LUCID_UPDATE_DOCS=1 npx vitest run test/secrets/docs.test.ts
    expect(normaliseTables(doc.slice(start, end))).toBe(normaliseTables(rendered));
  });

  it("names every rule id and allow-rule id", () => {
    const doc = readFileSync(DOC, "utf8");
    for (const { id } of [...BUILTIN_RULES, ...ALLOW_RULES, ...FIELD_ALLOW_RULES]) {
      expect(doc, id).toContain(`\`${id}\``);
    }
  });
});

describe("catalogue", () => {
  it("has unique rule ids, at least 40 kinds, and a reason for everything", () => {
    const ids = BUILTIN_RULES.map((rule) => rule.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(BUILTIN_RULES.map((rule) => rule.kind)).size).toBeGreaterThanOrEqual(40);
    for (const rule of [...BUILTIN_RULES, ...ALLOW_RULES, ...FIELD_ALLOW_RULES]) {
      expect(rule.reason.length, rule.id).toBeGreaterThan(20);
    }
  });

  it("compiles every pattern global with match indices, and lower-cases every keyword", () => {
    for (const rule of BUILTIN_RULES) {
      expect(rule.pattern.flags, rule.id).toContain("g");
      expect(rule.pattern.flags, rule.id).toContain("d");
      for (const keyword of rule.keywords) expect(keyword, rule.id).toBe(keyword.toLowerCase());
    }
  });
});
