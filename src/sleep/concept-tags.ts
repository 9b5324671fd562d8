/**
 * Concept tags of a snippet (`openclaw-dreaming.md` §4, early version): the distinctive words of its
 * file name and text, so the deep phase can prefer snippets that name things ("kyoto", "ryokan",
 * "billing-api") over snippets that do not.
 *
 * @module
 */

/** Tags kept per entry. */
export const MAX_CONCEPT_TAGS = 8;

const TOKEN = /[A-Za-z0-9][A-Za-z0-9._/-]{2,}/gu;
const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/u;
// Words every note has, and the words of the tool itself.
const STOP_WORDS = new Set(
  (
    "about after again agent also and any are been before being both but can could did does done each for from " +
    "had has have her here him his how into its just last like made make many memory more most much must next " +
    "note notes now only other our out over said same session she should some such than that the their them then " +
    "there these they this those today tomorrow too under until very was were what when where which while who " +
    "will with workspace would yesterday you your"
  ).split(" "),
);
const EXTENSIONS = new Set("md txt ts tsx js mjs json yaml yml toml py sh csv log html css".split(" "));

/**
 * @example
 * conceptTags("memory/2026-11-04.md", "Travel: book the ryokan in Kyoto by March");
 * // => ["travel", "book", "ryokan", "kyoto", "march"]
 */
export function conceptTags(path: string, snippet: string): string[] {
  // The file's name says what it is about once its extension and its date are gone ("billing-api").
  const base = (path.split("/").at(-1) ?? "")
    .replace(/\.[A-Za-z0-9]+$/u, "")
    .replace(/^\d{4}-\d{2}-\d{2}-?/u, "");
  const tags: string[] = [];
  for (const match of `${base} ${snippet}`.matchAll(TOKEN)) {
    const tag = match[0]
      .replace(/^[./_-]+|[./_-]+$/gu, "")
      .replace(/_/gu, "-")
      .toLowerCase();
    if (tag.length < 3 || tag.length > 32 || /^\d+$/u.test(tag) || ISO_DATE.test(tag)) continue;
    if (STOP_WORDS.has(tag) || EXTENSIONS.has(tag) || /^\d{4}-\d{2}-\d{2}\.\w+$/u.test(tag)) continue;
    if (!tags.includes(tag)) tags.push(tag);
    if (tags.length === MAX_CONCEPT_TAGS) break;
  }
  return tags;
}
