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
 * Proposed: <N> merges, <N> prunes, <N> conflicts. Apply? [Y/n]
 * ```
 *
 * Empty sections are left out, and a plan without actions is the one line
 * `Dream complete. No duplicate, contradictory, or stale memories found.` Lucid's extra sections,
 * `Credentials (<N>):` and `Rewrites (<N>):`, follow Prune in the same style, and their counts are
 * added to the `Proposed:` line only when they are not zero, so a report without them is
 * byte-for-byte the skill's. Prune lines for noise and low confidence end with the reason in
 * parentheses; expired ones are exactly the template's. `[mem0:<id>]` is kept as the skill writes
 * it, so tools that read the skill's report read Lucid's.
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
  RewriteAction,
} from "./plan.js";

export const NOTHING_TO_DO = "Dream complete. No duplicate, contradictory, or stale memories found.";

const PREVIEW = 100;

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
export function renderReport(plan: DreamPlan): string {
  if (plan.actions.length === 0) return NOTHING_TO_DO;
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
    section("Merges", merges, (a) => `${a.ids.map(ref).join(" + ")} → ${quote(a.text)}`),
    section(
      "Conflicts",
      conflicts,
      (a) => `${ref(a.ids[0])} vs ${ref(a.ids[1])} — ${JSON.stringify(a.topic)} [A/B/skip]`,
    ),
    section("Prune", prunes, (a) => pruneLine(plan, a)),
    section("Credentials", credentials, (a) => credentialLine(a)),
    section("Rewrites", rewrites, (a) => `${ref(a.ids[0])} — ${a.reasons.join(", ")} → ${quote(a.text)}`),
  ].filter((text) => text !== "");

  const extras = [
    credentials.length > 0 ? `, ${credentials.length} credentials` : "",
    rewrites.length > 0 ? `, ${rewrites.length} rewrites` : "",
  ].join("");
  const proposed = `Proposed: ${merges.length} merges, ${prunes.length} prunes, ${conflicts.length} conflicts${extras}. Apply? [Y/n]`;
  return ["## dream — consolidation report", ...sections, proposed].join("\n\n");
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
  const reason = action.reason === "expired" ? "" : ` (${action.reason.replace("_", " ")})`;
  return `${ref(action.ids[0])} — ${type}, ${age}d old${reason}`;
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
