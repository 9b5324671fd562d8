/**
 * The phases' managed blocks in Markdown files: OpenClaw's layout, replaced in place and only
 * there, every other byte kept; and the files they are written to.
 */
import { lstatSync, mkdirSync, readFileSync, symlinkSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { isLucidError } from "../../src/errors.js";
import {
  MARKDOWN_MAX_BYTES,
  managedBlockBody,
  managedMarkers,
  removeManagedBlocks,
  renderManagedBlock,
  rewriteMarkdown,
  upsertManagedBlock,
  writeManagedBlock,
  writeSeparateReport,
} from "../../src/sleep/managed-block.js";
import { tempFiles } from "../helpers/temp-dir.js";

const files = tempFiles("managed-block");
const LIGHT = [
  "## Light Sleep",
  "<!-- openclaw:dreaming:light:start -->",
  "- No notable updates.",
  "<!-- openclaw:dreaming:light:end -->",
].join("\n");
const light = (text: string, body = "- No notable updates.") =>
  upsertManagedBlock(text, "light", "Light Sleep", body);

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
  } catch (error) {
    return isLucidError(error) ? error.code : "not a LucidError";
  }
  return undefined;
}

describe("a managed block's text", () => {
  it("is OpenClaw's: the heading above the start marker, the body, the end marker", () => {
    expect(managedMarkers("rem")).toEqual({
      start: "<!-- openclaw:dreaming:rem:start -->",
      end: "<!-- openclaw:dreaming:rem:end -->",
    });
    expect(renderManagedBlock("light", "Light Sleep", "- No notable updates.\n\n")).toBe(LIGHT);
    expect(renderManagedBlock("deep", "## Deep Sleep", "- x")).toBe(
      "## Deep Sleep\n<!-- openclaw:dreaming:deep:start -->\n- x\n<!-- openclaw:dreaming:deep:end -->",
    );
  });

  it("is appended after one blank line, whatever the text ends with", () => {
    expect(light("")).toBe(`${LIGHT}\n`);
    expect(light("# Notes")).toBe(`# Notes\n\n${LIGHT}\n`);
    expect(light("# Notes\n")).toBe(`# Notes\n\n${LIGHT}\n`);
    expect(light("# Notes\n\n")).toBe(`# Notes\n\n${LIGHT}\n`);
    expect(light("# Notes\n\n\n")).toBe(`# Notes\n\n\n${LIGHT}\n`);
  });

  it("is idempotent, and a new body replaces exactly the old one", () => {
    const note = "# 2026-11-29\r\n\r\n- call the bank  \r\n\t- about the card\r\n";
    const once = light(note);
    expect(light(once)).toBe(once);
    const after = `${once}\nWritten later, by hand.\n   \n`;
    const changed = light(after, "- Candidate: use pnpm\n  - recalls: 3");
    expect(changed).toBe(after.replace("- No notable updates.", "- Candidate: use pnpm\n  - recalls: 3"));
    expect(light(changed, "- Candidate: use pnpm\n  - recalls: 3")).toBe(changed);
    expect(managedBlockBody(changed, "light")).toBe("- Candidate: use pnpm\n  - recalls: 3");
    expect(managedBlockBody(note, "light")).toBeUndefined();
  });

  it("keeps every line around the block byte for byte, in order", () => {
    const before = "# Day\r\n\r\nÜber-note with trailing spaces   \r\n<!-- a comment -->\r\n\r\n";
    const afterText = "\r\n## Later\r\n- tail without a final break";
    const text = `${before}## Light Sleep\r\n<!-- openclaw:dreaming:light:start -->\r\nold\r\n<!-- openclaw:dreaming:light:end -->\r\n${afterText}`;
    const next = light(text);
    expect(next).toBe(`${before}${LIGHT}\r\n${afterText}`);
    expect(light(next)).toBe(next);
  });

  it("leaves other phases' blocks and a different heading's lines alone", () => {
    const rem =
      "## REM Sleep\n<!-- openclaw:dreaming:rem:start -->\n- a\n<!-- openclaw:dreaming:rem:end -->\n";
    const text = `# Day\n\n${rem}`;
    const next = light(text);
    expect(next).toBe(`# Day\n\n${rem}\n${LIGHT}\n`);
    expect(upsertManagedBlock(next, "rem", "REM Sleep", "- b")).toBe(
      `# Day\n\n${rem.replace("- a", "- b")}\n${LIGHT}\n`,
    );
  });

  it("takes the heading with it when blank lines separate it from the marker", () => {
    const text =
      "intro\n\n## Light Sleep\n\n<!-- openclaw:dreaming:light:start -->\nold\n<!-- openclaw:dreaming:light:end -->\noutro\n";
    expect(light(text)).toBe(`intro\n\n${LIGHT}\noutro\n`);
  });

  it("puts its heading above a block that had none", () => {
    const text = "intro\n<!-- openclaw:dreaming:light:start -->\nold\n<!-- openclaw:dreaming:light:end -->\n";
    const next = light(text);
    expect(next).toBe(`intro\n${LIGHT}\n`);
    expect(light(next)).toBe(next);
  });

  it("replaces the first of several blocks and removes the others with their separators", () => {
    const old = (n: number) =>
      `## Light Sleep\n<!-- openclaw:dreaming:light:start -->\nold ${n}\n<!-- openclaw:dreaming:light:end -->\n`;
    const text = `# Day\n\n${old(1)}\nkept paragraph\n\n${old(2)}\nanother\n\n${old(3)}`;
    expect(light(text)).toBe(`# Day\n\n${LIGHT}\n\nkept paragraph\n\nanother\n`);
    const glued = `# Day\n\n${old(1)}${old(2)}tail\n`;
    expect(light(glued)).toBe(`# Day\n\n${LIGHT}\ntail\n`);
  });

  it("keeps a dangling start marker and everything after it, and appends a fresh block", () => {
    const text =
      "# Day\n\n<!-- openclaw:dreaming:light:start -->\n- half a block\n\nHand-written after it.\n";
    const next = light(text);
    expect(next).toBe(`${text}\n${LIGHT}\n`);
    expect(light(next)).toBe(next);
    expect(light(next, "- new")).toBe(`${text}\n${LIGHT.replace("- No notable updates.", "- new")}\n`);
  });

  it("ignores a stray end marker, and a marker inside a line of prose", () => {
    const text =
      "<!-- openclaw:dreaming:light:end -->\nWe write <!-- openclaw:dreaming:light:start --> in notes.\n" +
      "and <!-- openclaw:dreaming:light:end --> too\n";
    expect(light(text)).toBe(`${text}\n${LIGHT}\n`);
  });

  it("refuses a body holding a marker line and a heading of several lines", () => {
    expect(codeOf(() => light("", "- a\n<!-- openclaw:dreaming:light:end -->\n- b"))).toBe(
      "INVALID_ARGUMENT",
    );
    expect(codeOf(() => light("", " <!-- openclaw:dreaming:diary:start --> "))).toBe("INVALID_ARGUMENT");
    expect(codeOf(() => upsertManagedBlock("", "light", "Light\nSleep", "- a"))).toBe("INVALID_ARGUMENT");
    expect(codeOf(() => upsertManagedBlock("", "light", "  ", "- a"))).toBe("INVALID_ARGUMENT");
  });
});

describe("removeManagedBlocks", () => {
  it("removes every phase's blocks and their OpenClaw headings, and nothing else", () => {
    const rem =
      "## REM Sleep\n<!-- openclaw:dreaming:rem:start -->\n- a\n<!-- openclaw:dreaming:rem:end -->\n";
    const deep = "<!-- openclaw:dreaming:deep:start -->\n- d\n<!-- openclaw:dreaming:deep:end -->\n";
    const text = `# Day\n\n- keep me  \n\n${LIGHT}\n\nmiddle\n\n${rem}\n${deep}`;
    expect(removeManagedBlocks(text)).toBe("# Day\n\n- keep me  \n\nmiddle\n");
    expect(removeManagedBlocks(`${LIGHT}\n\nfirst line\n`)).toBe("first line\n");
    expect(removeManagedBlocks("no blocks\n\n")).toBe("no blocks\n\n");
    const dangling = "a\n<!-- openclaw:dreaming:light:start -->\nb\n";
    expect(removeManagedBlocks(dangling)).toBe(dangling);
  });
});

describe("writeManagedBlock", () => {
  it("creates the note and its folders, then writes only when the bytes change", async () => {
    const file = join(files.dir, "ws-1", "memory", "2026-11-29.md");
    expect(await writeManagedBlock(file, "light", "Light Sleep", "- No notable updates.")).toEqual({
      written: true,
    });
    expect(readFileSync(file, "utf8")).toBe(`${LIGHT}\n`);
    expect(await writeManagedBlock(file, "light", "Light Sleep", "- No notable updates.")).toEqual({
      written: false,
    });
    writeFileSync(file, `Morning notes.\n\n${LIGHT}\nEvening notes.\n`);
    await writeManagedBlock(file, "light", "Light Sleep", "- x");
    expect(readFileSync(file, "utf8")).toBe(
      `Morning notes.\n\n${LIGHT.replace("- No notable updates.", "- x")}\nEvening notes.\n`,
    );
  });

  it("leaves a file over 16 MiB untouched and says so", async () => {
    const file = join(files.dir, "huge.md");
    writeFileSync(file, "");
    truncateSync(file, MARKDOWN_MAX_BYTES + 1);
    expect(await writeManagedBlock(file, "light", "Light Sleep", "- x")).toEqual({
      written: false,
      reason: "too-large",
    });
    expect(lstatSync(file).size).toBe(MARKDOWN_MAX_BYTES + 1);
    const exact = join(files.dir, "exact.md");
    writeFileSync(exact, "");
    truncateSync(exact, MARKDOWN_MAX_BYTES);
    // 16 MiB of zero bytes is still UTF-8 text, and at the limit, not over it.
    expect((await writeManagedBlock(exact, "light", "Light Sleep", "- x")).written).toBe(true);
  });

  it("refuses a symbolic link, a folder and bytes that are not UTF-8, leaving them as they were", async () => {
    const real = join(files.dir, "real.md");
    writeFileSync(real, "real\n");
    const link = join(files.dir, "link.md");
    symlinkSync(real, link);
    expect(await writeManagedBlock(link, "rem", "REM Sleep", "- x")).toEqual({
      written: false,
      reason: "not-a-file",
    });
    expect(lstatSync(link).isSymbolicLink()).toBe(true);
    expect(readFileSync(real, "utf8")).toBe("real\n");
    const folder = join(files.dir, "folder.md");
    mkdirSync(folder);
    expect((await writeManagedBlock(folder, "rem", "REM Sleep", "- x")).reason).toBe("not-a-file");
    const latin1 = join(files.dir, "latin1.md");
    const bytes = Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a]);
    writeFileSync(latin1, bytes);
    expect((await writeManagedBlock(latin1, "rem", "REM Sleep", "- x")).reason).toBe("not-utf8");
    expect(readFileSync(latin1).equals(bytes)).toBe(true);
  });
});

describe("rewriteMarkdown", () => {
  it("keeps what another writer appends between its read and its write, and gives up on a file that keeps changing", async () => {
    const file = join(files.dir, "racing.md");
    writeFileSync(file, "# 2026-11-29\n- first\n");
    let calls = 0;
    const result = await rewriteMarkdown(file, (text) => {
      calls++;
      // An agent appends to the note while sleep is splicing its block in (once).
      if (calls === 1) writeFileSync(file, `${text}- appended meanwhile\n`);
      return upsertManagedBlock(text ?? "", "light", "Light Sleep", "- No notable updates.");
    });
    expect(result).toEqual({ written: true });
    expect(calls).toBe(2);
    const after = readFileSync(file, "utf8");
    expect(after.startsWith("# 2026-11-29\n- first\n- appended meanwhile\n")).toBe(true);
    expect(after).toContain("<!-- openclaw:dreaming:light:start -->");

    const restless = join(files.dir, "restless.md");
    writeFileSync(restless, "- a\n");
    let n = 0;
    const error = await rewriteMarkdown(restless, (text) => {
      writeFileSync(restless, `${text}- change ${++n}\n`);
      return `${text}- mine\n`;
    }).catch((caught: unknown) => caught);
    expect(isLucidError(error, "SLEEP_CONFLICT")).toBe(true);
    expect(readFileSync(restless, "utf8")).not.toContain("- mine");
  });
});

describe("writeSeparateReport", () => {
  it("writes memory/dreaming/<phase>/<day>.md with the heading and the body", async () => {
    const workspace = join(files.dir, "ws-report");
    const path = await writeSeparateReport(workspace, "light", "2026-11-29", "Light Sleep", "- a\n- b\n");
    expect(path).toBe(join(workspace, "memory", "dreaming", "light", "2026-11-29.md"));
    expect(readFileSync(path, "utf8")).toBe("# Light Sleep\n\n- a\n- b\n");
    await writeSeparateReport(workspace, "light", "2026-11-29", "Light Sleep", "- c");
    expect(readFileSync(path, "utf8")).toBe("# Light Sleep\n\n- c\n");
  });

  it("refuses a day that is not YYYY-MM-DD", async () => {
    await expect(writeSeparateReport(files.dir, "deep", "../x", "Deep Sleep", "- a")).rejects.toMatchObject({
      code: "INVALID_ARGUMENT",
    });
  });
});
