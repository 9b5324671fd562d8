/**
 * A Markdown note cut into the snippets search returns and sleep ranks (`openclaw-dreaming.md` §4,
 * "Builds snippets"):
 *
 * - the nearest heading is the snippet's prefix: `Heading: body`;
 * - each list item is a snippet of its own, with its ancestors' texts before it, joined by ` > `
 *   (`Travel > Japan > book the ryokan by March`); a line indented under an item continues it;
 * - other text goes by paragraph, at most 4 lines a snippet;
 * - the blocks sleep itself manages (`<!-- openclaw:dreaming:<phase>:start -->` … `end -->`) are left
 *   out: sleep's output must not come back as its input.
 *
 * Lines are 1-based and inclusive, so a snippet is addressed `path#Lstart-Lend`.
 *
 * @module
 */

export interface NoteChunk {
  readonly startLine: number;
  readonly endLine: number;
  /** The snippet: heading prefix, ancestors and body, on one line. */
  readonly text: string;
}

export interface ChunkOptions {
  /** Bodies shorter than this say nothing on their own. Default 8. */
  readonly minChars?: number;
  /** Longer snippets are cut at a word. Default 280. */
  readonly maxChars?: number;
}

/** Lines of one paragraph snippet at most. */
export const PARAGRAPH_LINES = 4;

const HEADING = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/u;
const LIST_ITEM = /^(\s*)(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?(.*)$/u;
const FENCE_START = /<!--\s*openclaw:dreaming:[\w-]+:start\s*-->/u;
const FENCE_END = /<!--\s*openclaw:dreaming:[\w-]+:end\s*-->/u;
const CODE_FENCE = /^\s*(?:```|~~~)/u;

interface OpenItem {
  readonly indent: number;
  readonly text: string;
}

/**
 * @example
 * chunkNote("# Travel\n- Japan\n  - book the ryokan by March\n");
 * // => [{ startLine: 2, endLine: 2, text: "Travel: Japan" },
 * //     { startLine: 3, endLine: 3, text: "Travel: Japan > book the ryokan by March" }]
 */
export function chunkNote(text: string, options: ChunkOptions = {}): NoteChunk[] {
  const minChars = options.minChars ?? 8;
  const maxChars = options.maxChars ?? 280;
  const lines = text.replace(/\r\n?/gu, "\n").split("\n");
  const chunks: NoteChunk[] = [];
  let heading: string | undefined;
  let items: OpenItem[] = [];
  let paragraph: { start: number; lines: string[] } | undefined;
  let item: { start: number; end: number; indent: number; lines: string[] } | undefined;
  let inManaged = false;
  let inCode = false;

  const emit = (start: number, end: number, body: string) => {
    // Comments are markup, not what the note says (a promotion marker, an importance annotation).
    const clean = body
      .replace(/<!--[\s\S]*?-->/gu, " ")
      .replace(/\s+/gu, " ")
      .trim();
    if (clean.length < minChars) return;
    const full = heading === undefined ? clean : `${heading}: ${clean}`;
    chunks.push({ startLine: start, endLine: end, text: cut(full, maxChars) });
  };
  const flushParagraph = () => {
    if (paragraph === undefined) return;
    const { start, lines: body } = paragraph;
    for (let at = 0; at < body.length; at += PARAGRAPH_LINES) {
      const part = body.slice(at, at + PARAGRAPH_LINES);
      emit(start + at, start + at + part.length - 1, part.join(" "));
    }
    paragraph = undefined;
  };
  const flushItem = () => {
    const current = item;
    if (current === undefined) return;
    const own = current.lines.join(" ").trim();
    const ancestors = items.filter((open) => open.indent < current.indent);
    emit(current.start, current.end, [...ancestors.map((open) => open.text), own].join(" > "));
    items = [...ancestors, { indent: current.indent, text: own }];
    item = undefined;
  };
  const flush = () => {
    flushItem();
    flushParagraph();
  };

  lines.forEach((line, index) => {
    const number = index + 1;
    if (inManaged) {
      if (FENCE_END.test(line)) inManaged = false;
      return;
    }
    if (FENCE_START.test(line)) {
      flush();
      inManaged = !FENCE_END.test(line);
      return;
    }
    if (CODE_FENCE.test(line)) inCode = !inCode;
    const headingMatch = inCode ? null : HEADING.exec(line);
    if (headingMatch !== null) {
      flush();
      items = [];
      // A managed block's own heading (`## Light Sleep` above its start marker) goes with the block:
      // the note's text after the block is still under the heading before it.
      if (FENCE_START.test(lines.slice(index + 1).find((next) => next.trim() !== "") ?? "")) return;
      heading = headingMatch[2] === "" ? undefined : headingMatch[2];
      return;
    }
    if (line.trim() === "") {
      // A blank line ends a paragraph or an item, not the list: loose lists keep their ancestors.
      flush();
      return;
    }
    const listMatch = inCode ? null : LIST_ITEM.exec(line);
    if (listMatch !== null) {
      flush();
      const indent = (listMatch[1] ?? "").replace(/\t/gu, "    ").length;
      item = { start: number, end: number, indent, lines: [listMatch[2] ?? ""] };
      return;
    }
    const indent = (/^\s*/u.exec(line)?.[0] ?? "").replace(/\t/gu, "    ").length;
    if (item !== undefined && indent > item.indent) {
      // A line indented under a list item continues it.
      item.lines.push(line.trim());
      item.end = number;
      return;
    }
    flushItem();
    items = [];
    if (paragraph === undefined) paragraph = { start: number, lines: [] };
    paragraph.lines.push(line.trim());
  });
  flush();
  return chunks;
}

/** `text` cut at the last word boundary before `max` characters, with an ellipsis. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.lastIndexOf(" ");
  return `${(space > max / 2 ? head.slice(0, space) : head).trimEnd()}…`;
}
