/**
 * The `MEMORY.md` budget (`openclaw-dreaming.md` §8, "MEMORY.md budget"): the file an agent loads on
 * every turn stays under 10,000 characters. When a promotion would take it past, the oldest sections
 * sleep generated itself are dropped whole — never a hand-written line, never a section someone
 * edited — until the text fits, or until dropping one more would lose more than `maxLoss` (0.25) of
 * all generated entries. What still does not fit is the caller's to leave out.
 *
 * Pure.
 *
 * @module
 */

export const MEMORY_MAX_CHARS = 10_000;
/** OpenClaw keeps 21 characters in reserve. */
export const BUDGET_RESERVE = 21;
export const MAX_PRIOR_ENTRY_LOSS = 0.25;

const GENERATED_HEADING =
  /^## (?:Promoted From Short-Term Memory|Consolidated Memory) \((\d{4}-\d{2}-\d{2})\)\s*$/u;
const SUB_HEADING = /^### (?:Global|Project: .+)$/u;
const LINEAGE = /^<!--\s*openclaw-memory-lineage:.*-->$/u;
const MARKER = /^<!--\s*openclaw-memory-promotion:.*-->$/u;

export interface Compaction {
  readonly text: string;
  readonly fits: boolean;
  /** Dates of the sections dropped, oldest first. */
  readonly compactedDates: readonly string[];
  readonly droppedEntries: number;
}

interface Section {
  /** Line indexes [from, to) in the file. */
  readonly from: number;
  readonly to: number;
  readonly date: string;
  readonly entries: number;
}

/**
 * `existing` with the oldest generated sections dropped until `existing` plus `addedChars` fits in
 * `maxChars` (less the reserve), within the loss bound.
 *
 * @example
 * compactForBudget(memoryText, section.length).compactedDates; // => ["2026-10-02"]
 */
export function compactForBudget(
  existing: string,
  addedChars: number,
  options: { maxChars?: number; maxLoss?: number } = {},
): Compaction {
  const limit = (options.maxChars ?? MEMORY_MAX_CHARS) - BUDGET_RESERVE;
  const maxLoss = options.maxLoss ?? MAX_PRIOR_ENTRY_LOSS;
  const fitsWith = (text: string) => text.length + addedChars <= limit;
  if (fitsWith(existing)) return { text: existing, fits: true, compactedDates: [], droppedEntries: 0 };
  const lines = existing.split("\n");
  const sections = generatedSections(lines).sort((a, b) =>
    a.date < b.date ? -1 : a.date > b.date ? 1 : a.from - b.from,
  );
  const total = sections.reduce((sum, section) => sum + section.entries, 0);
  const dropped: Section[] = [];
  let text = existing;
  let droppedEntries = 0;
  for (const section of sections) {
    if (fitsWith(text)) break;
    if ((droppedEntries + section.entries) / total > maxLoss) break;
    dropped.push(section);
    droppedEntries += section.entries;
    text = without(lines, dropped);
  }
  return {
    text,
    fits: fitsWith(text),
    compactedDates: dropped.map((section) => section.date),
    droppedEntries,
  };
}

/** The sections whose every line sleep wrote: heading, markers and one bullet per marker. */
function generatedSections(lines: readonly string[]): Section[] {
  const sections: Section[] = [];
  for (let at = 0; at < lines.length; at++) {
    const heading = GENERATED_HEADING.exec(lines[at] ?? "");
    if (heading === null) continue;
    let end = at + 1;
    while (end < lines.length && !/^#{1,2} /u.test(lines[end] ?? "")) end++;
    const body = lines.slice(at + 1, end).filter((line) => line.trim() !== "");
    let markers = 0;
    let bullets = 0;
    let pure = true;
    let expectBullet = false;
    for (const line of body) {
      if (MARKER.test(line)) {
        if (expectBullet) pure = false;
        markers++;
        expectBullet = true;
      } else if (line.startsWith("- ") && expectBullet) {
        bullets++;
        expectBullet = false;
      } else if (!SUB_HEADING.test(line) && !LINEAGE.test(line)) {
        pure = false;
      }
    }
    if (pure && markers > 0 && markers === bullets)
      sections.push({ from: at, to: end, date: heading[1] ?? "", entries: markers });
    at = end - 1;
  }
  return sections;
}

function without(lines: readonly string[], dropped: readonly Section[]): string {
  const gone = (index: number) => dropped.some((section) => index >= section.from && index < section.to);
  return lines.filter((_, index) => !gone(index)).join("\n");
}
