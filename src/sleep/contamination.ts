/**
 * The contamination filter: snippets sleep never stores as a recall nor promotes, because they are
 * its own output or machine state coming back through search (`openclaw-dreaming.md` §4). Promoting
 * them would feed a dream its previous dream, or copy a session's metadata into `MEMORY.md`.
 *
 * @module
 */

/** Why a snippet is refused, or undefined when it may be recorded. */
export type Contamination =
  | "promotion-marker"
  | "diary-prompt"
  | "staged-candidate"
  | "no-content"
  | "session-metadata"
  | "conversation-summary"
  | "trace-noise";

const PROMOTION_MARKER = "<!-- openclaw-memory-promotion:";
const DIARY_PROMPT =
  /dreaming-narrative[^\n]*\]\s*(?:User|Assistant):\s*Write a dream diary entry from these memory fragments/iu;
const STAGED_LEAD = /(?:Candidate|Reflections?):/u;
const STAGED_FIELDS = [
  /confidence:\s*\d/iu,
  /evidence:\s*memory\//iu,
  /status:\s*staged/iu,
  /recalls:\s*\d+/iu,
];
const SESSION_METADATA = /Session Key\b[\s\S]*\bSession ID\b/iu;
const CONVERSATION_SUMMARY = /^\s*(?:#+\s*)?Conversation Summary\b/imu;
const TRACE_NOISE =
  /\d{4}-\d{2}-\d{2}-reconcile-report\.md|^\s*(?:Broken Links|Orphan Notes|Duplicate Concepts):|^\?\? \S|User:\s*loops\/cron-self-heal\/runs\//mu;

/**
 * @example
 * contaminationOf("- Candidate: use pnpm\n  confidence: 0.8\n  evidence: memory/2026-11-04.md#L3\n  recalls: 4\n  status: staged");
 * // => "staged-candidate"
 * contaminationOf("Alice prefers window seats on long flights"); // => undefined
 */
export function contaminationOf(snippet: string): Contamination | undefined {
  if (snippet.includes(PROMOTION_MARKER)) return "promotion-marker";
  if (DIARY_PROMPT.test(snippet)) return "diary-prompt";
  if (STAGED_LEAD.test(snippet.slice(0, 200)) && STAGED_FIELDS.every((field) => field.test(snippet)))
    return "staged-candidate";
  if (!hasContent(snippet)) return "no-content";
  if (SESSION_METADATA.test(snippet)) return "session-metadata";
  if (CONVERSATION_SUMMARY.test(snippet)) return "conversation-summary";
  if (TRACE_NOISE.test(snippet)) return "trace-noise";
  return undefined;
}

/**
 * A letter or digit in a line that is not a heading: headings alone ("## Notes", "### Todo", one or
 * several) are a skeleton that states nothing, and markup alone ("---") says less.
 */
function hasContent(snippet: string): boolean {
  const body = snippet.split("\n").filter((line) => line.trim() !== "" && !/^\s*#{1,6}(?:\s|$)/u.test(line));
  return body.some((line) => /[\p{L}\p{N}]/u.test(line));
}
