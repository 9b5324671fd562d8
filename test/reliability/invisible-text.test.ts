/**
 * Issue 11, minor: text made only of zero-width characters was stored; a lone surrogate was stored
 * as U+FFFD while `add` returned the original text. Invisible-only text is EMPTY_TEXT on every
 * writer; a lone surrogate becomes U+FFFD before anything is returned or stored.
 */
import { describe, expect, it } from "vitest";
import { useMemory } from "../helpers/use-memory.js";

const memory = useMemory("invisible-text");

describe("text a person cannot see", () => {
  it.each([
    ["zero-width spaces", "\u200B\u200B\u200B"],
    ["joiners and a BOM", "\u200C\u200D\uFEFF\u2060"],
    ["control characters and spaces", " \u0000\u0007 \t"],
  ])("is EMPTY_TEXT on add, update and import: %s", async (_case, text) => {
    await expect(memory().add(text, { userId: "alice" })).rejects.toMatchObject({ code: "EMPTY_TEXT" });
    const { results } = await memory().add("Alice likes green tea", { userId: "alice" });
    const id = results[0]?.id as string;
    await expect(memory().update(id, text)).rejects.toMatchObject({ code: "EMPTY_TEXT" });
    const imported = await memory().importMemories([{ text, user_id: "alice" }]);
    expect(imported.failed).toBe(1);
    expect((await memory().getAll({ userId: "alice" })).results.map((item) => item.memory)).toEqual([
      "Alice likes green tea",
    ]);
  });

  it("keeps visible text that uses joiners (emoji sequences, scripts that need them)", async () => {
    const { results } = await memory().add("Family emoji: 👨‍👩‍👧 and नमस्‍ते", { userId: "bob" });
    expect(results[0]?.event).toBe("ADD");
  });

  it("stores and returns a lone surrogate as U+FFFD, the same on add, get and a repeated add", async () => {
    const { results } = await memory().add("Carol's code name is X\uD800Y", { userId: "carol" });
    const added = results[0];
    expect(added?.memory).toBe("Carol's code name is X\uFFFDY");
    expect((await memory().get(added?.id as string))?.memory).toBe(added?.memory);
    // The same text given again is recognised as the same memory.
    const again = await memory().add("Carol's code name is X\uD800Y", { userId: "carol" });
    expect(again.results[0]).toMatchObject({ event: "NONE", id: added?.id });
  });
});
