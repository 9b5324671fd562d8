import { describe, expect, it } from "vitest";
import { isShortTermPath, normaliseNotePath, shortTermDay } from "../../src/sleep/note-paths.js";

describe("short-term note paths", () => {
  it.each([
    ["memory/2026-11-04.md", "2026-11-04"],
    ["memory/2026-11-04-standup.md", "2026-11-04"],
    ["memory/work notes/ぷろじぇくと/2026-11-04.md", "2026-11-04"],
    ["projects/lucid/memory/2026-11-04.md", "2026-11-04"],
    ["2026-11-04.md", "2026-11-04"],
    ["./memory/2026-11-04.md", "2026-11-04"],
    ["memory\\2026-11-04.md", "2026-11-04"],
    ["memory/.dreams/session-corpus/2026-11-04.txt", "2026-11-04"],
  ])("%s is a daily note of %s", (path, day) => {
    expect(shortTermDay(path)).toBe(day);
  });

  it.each([
    "MEMORY.md",
    "memory/people.md",
    "memory/dreaming/deep/2026-11-04.md",
    "memory/dreaming/2026-11-04.md",
    "memory/.dreams/2026-11-04.md",
    "notes/2026-11-04.md",
    "memory/2026-02-30.md",
    "memory/2026-11-04.txt",
    "memory/../2026-11-04.md",
    "DREAMS.md",
  ])("%s is not short-term", (path) => {
    expect(isShortTermPath(path)).toBe(false);
  });

  it("normalises separators and a leading ./", () => {
    expect(normaliseNotePath(".\\memory//2026-11-04.md")).toBe("memory/2026-11-04.md");
  });
});
