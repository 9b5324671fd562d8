/**
 * The Markdown file Mem0's export skill writes (`mem0-export-<project>-<date>.md`): one block per
 * memory, YAML-style front matter between `---` lines (`id`, `created_at`, `type`, `confidence`,
 * `branch`, `files`, `categories`, each on one line, empty when unknown), then the memory's text.
 *
 * @module
 */

export interface MarkdownEntry {
  /** 1-based line of the block's opening `---`. */
  readonly line: number;
  /** The block as a record in Mem0's field names (`memory`, `created_at`, `metadata`…). */
  readonly object: Record<string, unknown>;
}

const FIELD = /^([A-Za-z_][\w-]*):[ \t]?(.*)$/u;
/** Front matter is short: a `---` is a block's start only if its closing `---` comes this soon. */
const MAX_FIELDS = 20;
const LISTS = new Set(["files", "categories"]);

/** Whether the text looks like such an export: it opens with front matter. */
export function isMem0Markdown(text: string): boolean {
  const lines = text.replace(/^\uFEFF/u, "").split(/\r?\n/u);
  const first = lines.findIndex((line) => line.trim() !== "");
  return first >= 0 && frontMatterEnd(lines, first) !== undefined;
}

/**
 * The blocks of the export, in order.
 *
 * @example
 * parseMem0Markdown("---\nid: m1\ncreated_at: 2025-01-02T03:04:05Z\ntype: decision\n---\nUse pnpm\n");
 * // => [{ line: 1, object: { id: "m1", created_at: "2025-01-02T03:04:05Z", memory: "Use pnpm", metadata: { type: "decision" } } }]
 */
export function parseMem0Markdown(text: string): MarkdownEntry[] {
  const lines = text.replace(/^\uFEFF/u, "").split(/\r?\n/u);
  const entries: MarkdownEntry[] = [];
  let index = lines.findIndex((line) => line.trim() !== "");
  while (index >= 0 && index < lines.length) {
    const end = frontMatterEnd(lines, index);
    if (end === undefined) break;
    let next = end + 1;
    while (next < lines.length && frontMatterEnd(lines, next) === undefined) next++;
    const fields = lines.slice(index + 1, end);
    const body = lines
      .slice(end + 1, next)
      .join("\n")
      .trim();
    entries.push({ line: index + 1, object: blockObject(fields, body) });
    index = next;
  }
  return entries;
}

/** The index of the `---` closing front matter opened at `start`, if `start` opens one. */
function frontMatterEnd(lines: readonly string[], start: number): number | undefined {
  if (lines[start]?.trim() !== "---") return undefined;
  for (let at = start + 1; at < lines.length && at <= start + MAX_FIELDS + 1; at++) {
    const line = lines[at] as string;
    if (line.trim() === "---") return at > start + 1 ? at : undefined;
    if (!FIELD.test(line)) return undefined;
  }
  return undefined;
}

function blockObject(fields: readonly string[], body: string): Record<string, unknown> {
  const object: Record<string, unknown> = { memory: body };
  const metadata: Record<string, unknown> = {};
  for (const line of fields) {
    const [, key = "", raw = ""] = FIELD.exec(line) ?? [];
    const value = raw.trim();
    if (value === "" || value === "null") continue;
    if (
      key === "id" ||
      key === "created_at" ||
      key === "updated_at" ||
      key === "user_id" ||
      key === "app_id"
    ) {
      object[key] = value;
    } else if (key === "categories") {
      object.categories = splitList(value);
    } else if (LISTS.has(key)) {
      metadata[key] = splitList(value);
    } else if (key === "confidence" && Number.isFinite(Number(value))) {
      metadata.confidence = Number(value);
    } else {
      metadata[key] = value;
    }
  }
  if (Object.keys(metadata).length > 0) object.metadata = metadata;
  return object;
}

function splitList(value: string): string[] {
  return value
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}
