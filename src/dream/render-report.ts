/**
 * The dream report as text, in the exact format of Mem0's `mem0-dream` skill (§B.1 of the spec):
 *
 * ```
 * ## dream — consolidation report
 *
 * Merges (<N>):
 *   [mem0:<id1>] + [mem0:<id2>] → "<merged content, 100 chars>"
 *
 * Conflicts (<N>):
 *   [mem0:<idA>] vs [mem0:<idB>] — "<topic>" [A/B/skip]
 *
 * Prune (<N>):
 *   [mem0:<id>] — <type>, <age>d old
 *
 * Proposed: <N> merges, <N> prunes, <N> conflicts.
 * ```
 *
 * The skill ends its last line with "Apply? [Y/n]"; the report leaves the question to whoever asks
 * it (the interactive flow), so a dry run never seems to wait for an answer. Empty sections are
 * left out, and a plan without actions is the one line {@link NOTHING_TO_DO}. Lucid's extra sections,
 * `Credentials (<N>):` and `Rewrites (<N>):`, follow Prune in the same style, and their counts are
 * added to the `Proposed:` line only when they are not zero, so a report without them is
 * byte-for-byte the skill's. Every prune line ends with its reason in parentheses: noise, low
 * confidence, or for an expiry what caused it (the category's TTL, or the memory's expiry date).
 * `[mem0:<id>]` is kept as the skill writes it, so tools that read the skill's report read Lucid's.
 *
 * Given the memories' texts (secrets already masked) and dates, each line is followed by them, cut
 * to the width, and by the suggested winner of a conflict and why — what a person needs to judge
 * the line without looking anything up.
 *
 * @module
 */

import { ageInDays } from "./memory-facts.js";
import type {
  ConflictAction,
  DeleteAction,
  DreamAction,
  DreamPlan,
  MergeAction,
  ReviewItem,
  RewriteAction,
} from "./plan.js";

export const NOTHING_TO_DO =
  "Nothing found to consolidate: no duplicate, contradictory, stale or noisy memories.";

const PREVIEW = 100;

/** What the report may show of a memory: its text (secrets masked) and when it was written. */
export interface ShownMemory {
  readonly text: string;
  readonly createdAt: string;
}

export interface ReportDetails {
  readonly memories: ReadonlyMap<string, ShownMemory>;
  /** Characters per line (the terminal's width); detail lines are cut to it. */
  readonly width?: number;
}

/**
 * @example
 * renderReport(plan);
 * // ## dream — consolidation report
 * //
 * // Prune (1):
 * //   [mem0:7f3a…] — operational, 12d old
 * //
 * // Proposed: 0 merges, 1 prunes, 0 conflicts. Apply? [Y/n]
 */
export function renderReport(plan: DreamPlan, details?: ReportDetails): string {
  if (plan.actions.length === 0 && plan.review.length === 0 && (plan.judge?.decisions.length ?? 0) === 0)
    return NOTHING_TO_DO;
  const width = Math.max(40, details?.width ?? PREVIEW);
  const shown = (action: DreamAction, line: string, why?: string): string => {
    if (details === undefined) return why === undefined ? line : `${line}\n${cut(`      ${why}`, width)}`;
    const lines = [line];
    for (const id of action.ids) {
      const memory = details.memories.get(id);
      if (memory === undefined) continue;
      const prefix = `      ${ref(id)} ${memory.createdAt.slice(0, 10)}  `;
      lines.push(cut(`${prefix}${flatten(memory.text)}`, width));
    }
    const reason = why ?? whyLine(action);
    if (reason !== undefined) lines.push(cut(`      ${reason}`, width));
    return lines.join("\n");
  };
  const merges = plan.actions.filter((a): a is MergeAction => a.kind === "merge");
  const conflicts = plan.actions.filter((a): a is ConflictAction => a.kind === "conflict");
  const prunes = plan.actions.filter(
    (a): a is DeleteAction => a.kind === "delete" && a.reason !== "credential",
  );
  const credentials = plan.actions.filter(isCredential);
  const rewrites = plan.actions.filter(
    (a): a is RewriteAction => a.kind === "rewrite" && !a.reasons.includes("credential_redacted"),
  );

  const sections = [
    section("Merges", merges, (a) => shown(a, `${a.ids.map(ref).join(" + ")} → ${quote(a.text)}`)),
    section("Conflicts", conflicts, (a) =>
      shown(a, `${ref(a.ids[0])} vs ${ref(a.ids[1])} — ${JSON.stringify(a.topic)} [A/B/skip]`),
    ),
    section("Prune", prunes, (a) => shown(a, pruneLine(plan, a))),
    section("Credentials", credentials, (a) => shown(a, credentialLine(a))),
    section("Rewrites", rewrites, (a) =>
      shown(a, `${ref(a.ids[0])} — ${a.reasons.join(", ")} → ${quote(a.text)}`),
    ),
    section("Review", plan.review, (item) => shown(item.proposal, reviewLine(item), item.why.detail)),
    judgeSection(plan),
  ].filter((text) => text !== "");

  const extras = [
    credentials.length > 0 ? `, ${credentials.length} credentials` : "",
    rewrites.length > 0 ? `, ${rewrites.length} rewrites` : "",
  ].join("");
  const waiting = plan.review.length > 0 ? ` ${plan.review.length} wait for review.` : "";
  const proposed = `Proposed: ${merges.length} merges, ${prunes.length} prunes, ${conflicts.length} conflicts${extras}.${waiting}`;
  return ["## dream — consolidation report", ...sections, proposed].join("\n\n");
}

/** What the LLM judge decided, each verdict with its reason, and what the calls cost. */
function judgeSection(plan: DreamPlan): string {
  const { judge } = plan;
  if (judge === undefined) return "";
  const count = (outcome: string) => judge.decisions.filter((each) => each.outcome === outcome).length;
  const head =
    `Judged by ${judge.model} (${judge.calls} ${judge.calls === 1 ? "call" : "calls"}, ${judge.inputTokens} + ${judge.outputTokens} tokens): ` +
    `${count("confirmed")} confirmed, ${count("rejected")} rejected, ${count("kept")} kept for review` +
    (judge.unjudged > 0 ? `, ${judge.unjudged} not judged` : "");
  const lines = judge.decisions.map((decision) => {
    const wording =
      decision.wording === "rules" && decision.wordingNote
        ? ` (rules' wording: ${decision.wordingNote})`
        : "";
    return `  ${decision.ids.map(ref).join(" ~ ")} — ${decision.verdict} → ${decision.outcome}: ${flatten(decision.reason)}${wording}`;
  });
  const errors = judge.errors.slice(0, 3).map((error) => `  ${cut(flatten(error), PREVIEW)}`);
  return [`${head}:`, ...lines, ...errors].join("\n");
}

function section<T>(title: string, actions: readonly T[], line: (action: T) => string): string {
  if (actions.length === 0) return "";
  return [`${title} (${actions.length}):`, ...actions.map((action) => `  ${line(action)}`)].join("\n");
}

function isCredential(action: DreamAction): action is DeleteAction | RewriteAction {
  return (
    (action.kind === "delete" && action.reason === "credential") ||
    (action.kind === "rewrite" && action.reasons.includes("credential_redacted"))
  );
}

function pruneLine(plan: DreamPlan, action: DeleteAction): string {
  const seen = plan.seen[action.ids[0]];
  const type = seen?.type ?? seen?.category ?? "unknown";
  const age =
    seen?.createdAt === undefined
      ? "?"
      : String(Math.max(0, Math.floor(ageInDays(seen.createdAt, plan.now))));
  return `${ref(action.ids[0])} — ${type}, ${age}d old (${pruneReason(action)})`;
}

/**
 * `[mem0:a] ~ [mem0:b] — possible duplicate → "<merged>"`, `… — possible conflict: "<topic>"`, or
 * `[mem0:a] — possible injection, delete?` (the judge's reading follows on the why line).
 */
function reviewLine(item: ReviewItem): string {
  const ids = item.proposal.ids.map(ref).join(" ~ ");
  if (item.proposal.kind === "merge") return `${ids} — possible duplicate → ${quote(item.proposal.text)}`;
  if (item.proposal.kind === "conflict")
    return `${ids} — possible conflict: ${JSON.stringify(item.proposal.topic)}`;
  return `${ids} — possible injection, delete?`;
}

/** Why a prune: its kind, and for an expiry what caused it. */
function pruneReason(action: DeleteAction): string {
  if (action.reason !== "expired") return action.reason.replace("_", " ");
  const evidence = action.why.evidence ?? {};
  if (typeof evidence.expiresAt === "string")
    return `expired: its expiry date ${evidence.expiresAt.slice(0, 10)} passed`;
  if (typeof evidence.ttlDays === "number") {
    const category = typeof evidence.category === "string" ? `${evidence.category} ` : "";
    return `expired: past the ${category}TTL of ${evidence.ttlDays}d`;
  }
  return "expired";
}

/** The suggestion of a conflict and why; the rule's reading of a merge. */
function whyLine(action: DreamAction): string | undefined {
  if (action.kind === "conflict") {
    const reason = /suggest \S+: (.+)$/u.exec(action.why.detail)?.[1];
    return `suggest ${ref(action.suggested)}${reason === undefined ? "" : `: ${reason}`}`;
  }
  if (action.kind === "merge") return `keep ${ref(action.keep)}: ${action.why.detail}`;
  return undefined;
}

function flatten(text: string): string {
  return text.replace(/\s+/gu, " ").trim();
}

/** `line` cut to `width` characters, with "…" when cut. */
function cut(line: string, width: number): string {
  return line.length <= width ? line : `${line.slice(0, width - 1)}…`;
}

function credentialLine(action: DeleteAction | RewriteAction): string {
  const kinds = action.why.evidence?.kinds;
  const kind = Array.isArray(kinds) ? kinds.join(", ") : "secret";
  return action.kind === "delete"
    ? `${ref(action.ids[0])} — ${kind}, delete`
    : `${ref(action.ids[0])} — ${kind}, redact → ${quote(action.text)}`;
}

function ref(id: string): string {
  return `[mem0:${id}]`;
}

/** The text in double quotes, cut to 100 characters (with "..." when cut), on one line. */
function quote(text: string): string {
  const flat = text.replace(/\s+/gu, " ").trim();
  return `"${flat.length > PREVIEW ? `${flat.slice(0, PREVIEW - 3)}...` : flat}"`;
}
