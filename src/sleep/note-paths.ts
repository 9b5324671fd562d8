/**
 * Which files of a workspace are notes, and which of them are short-term: the raw material sleep may
 * promote (OpenClaw's rules, `../shared/specs/openclaw-dreaming.md` §4).
 *
 * - **Short-term**: a dated daily note, `memory/YYYY-MM-DD.md` or `memory/YYYY-MM-DD-<slug>.md`, in
 *   `memory/` or any folder below it (folder names may hold spaces or any script); a bare
 *   `YYYY-MM-DD(-slug).md`; and the session corpus, `memory/.dreams/session-corpus/YYYY-MM-DD.(md|txt)`.
 * - **Never short-term**, though searchable: `MEMORY.md`, undated `memory/*.md`, and everything under
 *   `memory/dreaming/` (the phases' own reports must not feed the next promotion).
 *
 * Paths are workspace-relative, with `/` separators.
 *
 * @module
 */

/** `memory/notes/2026-11-04.md` → itself; `.\\memory\\2026-11-04.md` → `memory/2026-11-04.md`. */
export function normaliseNotePath(path: string): string {
  return path
    .replace(/\\/gu, "/")
    .replace(/\/{2,}/gu, "/")
    .replace(/^(?:\.\/)+/u, "");
}

const DATED_NOTE = /^(\d{4})-(\d{2})-(\d{2})(?:-[^/]+)?\.md$/u;
const SESSION_CORPUS = /^memory\/\.dreams\/session-corpus\/(\d{4})-(\d{2})-(\d{2})\.(?:md|txt)$/u;

/**
 * The day a short-term note is of (`YYYY-MM-DD`), or undefined when the path is not short-term.
 *
 * @example
 * shortTermDay("memory/2026-11-04-standup.md"); // => "2026-11-04"
 * shortTermDay("memory/dreaming/deep/2026-11-04.md"); // => undefined
 * shortTermDay("MEMORY.md"); // => undefined
 */
export function shortTermDay(path: string): string | undefined {
  const normalised = normaliseNotePath(path);
  const parts = normalised.split("/");
  if (parts.includes("..")) return undefined;
  const corpus = SESSION_CORPUS.exec(normalised);
  if (corpus !== null) return realDay(corpus[1], corpus[2], corpus[3]);
  const name = parts.at(-1) ?? "";
  const dated = DATED_NOTE.exec(name);
  if (dated === null) return undefined;
  const folders = parts.slice(0, -1);
  // A bare dated file, or one anywhere under memory/ — but not under memory/dreaming/ nor the
  // machine state in memory/.dreams/ (the session corpus is matched above).
  if (folders.length > 0) {
    const at = folders.lastIndexOf("memory");
    if (at < 0) return undefined;
    const below = folders.slice(at + 1);
    if (below[0] === "dreaming" || below[0] === ".dreams") return undefined;
  }
  return realDay(dated[1], dated[2], dated[3]);
}

/** Whether sleep may promote snippets of this file. */
export function isShortTermPath(path: string): boolean {
  return shortTermDay(path) !== undefined;
}

function realDay(year = "", month = "", day = ""): string | undefined {
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  const text = `${year}-${month}-${day}`;
  return date.toISOString().slice(0, 10) === text ? text : undefined;
}
