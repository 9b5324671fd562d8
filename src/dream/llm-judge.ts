/**
 * Dream with a judge: the configured LLM looks at the review tier — the pairs the rules were not
 * sure of — and its verdicts move them: a possible duplicate it calls the same fact becomes a
 * merge (worded by the model when its wording keeps every detail, else by the rules); a possible
 * conflict it says is a replacement becomes a conflict; a pair it calls distinct leaves the review
 * tier; anything else stays for a person.
 *
 * The judge works inside the rules: it only sees pairs the rules put in review, which were guarded
 * like any action (a pinned or immutable memory is never in a proposed merge), and a verdict can
 * only confirm the proposal the rules made or drop it — never turn a possible conflict into a
 * merge. Every verdict is kept in `plan.judge` with the model, the prompt's hash and the reason.
 *
 * @module
 */

import type { MemoryContext } from "../core/context.js";
import { judgePairs, type PairJudgement, type PairToJudge } from "../core/judge-pairs.js";
import { startLlmRun } from "../core/llm-run.js";
import { secretsGuardOf } from "../core/secrets-guard.js";
import { LucidError } from "../errors.js";
import type { MemoryRow } from "../store/ports/memories.js";
import { extractEntities } from "../text/entities.js";
import { contentTerms, stemWord } from "../text/stem.js";
import { parsePlan } from "./parse-plan.js";
import type { DreamAction, DreamPlan, JudgeDecision, JudgeOutcome, MergeAction, ReviewItem } from "./plan.js";
import { planStats } from "./plan-stats.js";
import { precedenceRank } from "./precedence.js";

/**
 * The plan with the review tier judged. `rows` are the snapshot's memories (the judge needs their
 * texts; the plan keeps none).
 *
 * @throws LucidError `LLM_NOT_CONFIGURED` when the context has no LLM. A failing model does not
 *   fail the dream: its pairs stay in review, and `plan.judge.errors` says why.
 * @example
 * const judged = await judgeReview(context, plan, rows);
 * judged.judge?.decisions[0]; // => { kind: "possible-duplicate", verdict: "same", outcome: "confirmed", … }
 */
export async function judgeReview(
  context: MemoryContext,
  plan: DreamPlan,
  rows: readonly MemoryRow[],
): Promise<DreamPlan> {
  const run = startLlmRun(context, "dream");
  if (run === undefined) {
    throw new LucidError(
      "LLM_NOT_CONFIGURED",
      "dream with llm: true asks an LLM to judge the review tier, and none is configured. Configure `llm` in lucid.config.json (or openMemory({ llm })), or dream without it.",
    );
  }
  if (plan.review.length === 0) return plan;
  const byId = new Map(rows.map((row) => [row.id, row]));
  const pairs: PairToJudge[] = [];
  /** The newer of each pair, by item: "replaces" says it is the current one. */
  const newer = new Map<string, string>();
  for (const [index, item] of plan.review.entries()) {
    // The judge weighs pairs; whether a memory commands the agent is a person's call alone.
    if (item.kind === "possible-injection") continue;
    const [first, second] = item.proposal.ids.map((id) => byId.get(id));
    if (first === undefined || second === undefined) continue;
    const [a, b] = first.updatedAt <= second.updatedAt ? [first, second] : [second, first];
    newer.set(String(index), b.id);
    pairs.push({
      key: String(index),
      a: { text: a.text, at: a.updatedAt },
      b: { text: b.text, at: b.updatedAt },
      hint: item.why.detail,
      wantsWording: item.kind === "possible-duplicate",
    });
  }
  const judging = await judgePairs(run, pairs);
  const verdicts = new Map(judging.judgements.map((judgement) => [judgement.key, judgement]));
  const actions: DreamAction[] = [...plan.actions];
  const review: ReviewItem[] = [];
  const decisions: JudgeDecision[] = [];
  for (const [index, item] of plan.review.entries()) {
    const judgement = verdicts.get(String(index));
    if (judgement === undefined) {
      review.push(item);
      continue;
    }
    const outcome = outcomeOf(item, judgement);
    const decision: JudgeDecision = {
      kind: item.kind,
      ids: item.proposal.ids,
      verdict: judgement.verdict,
      outcome,
      reason: judgement.reason,
      model: judgement.model,
      promptHash: judgement.promptHash,
    };
    if (outcome === "kept") review.push(item);
    if (outcome !== "confirmed") {
      decisions.push(decision);
      continue;
    }
    const why = {
      rule: "llm-judge",
      detail: judgement.reason || `${judgement.model} judged: ${judgement.verdict}`,
      evidence: {
        model: judgement.model,
        promptHash: judgement.promptHash,
        verdict: judgement.verdict,
        review: item.why.detail,
      },
    };
    if (item.proposal.kind === "merge") {
      const wording = mergeWording(context, item.proposal, judgement, byId);
      actions.push({ ...item.proposal, text: wording.text, why });
      decisions.push({
        ...decision,
        wording: wording.by,
        ...(wording.note === undefined ? {} : { wordingNote: wording.note }),
      });
    } else if (item.proposal.kind === "conflict") {
      // The model said which is current; a pinned memory is still always the suggestion.
      const current = newer.get(String(index)) ?? item.proposal.suggested;
      const pinned = item.proposal.ids.some((id) => plan.seen[id]?.pinned === true);
      actions.push({ ...item.proposal, suggested: pinned ? item.proposal.suggested : current, why });
      decisions.push(decision);
    }
  }
  actions.sort((x, y) => precedenceRank(x) - precedenceRank(y) || compare(x.ids[0] ?? "", y.ids[0] ?? ""));
  const { spent } = run;
  return parsePlan({
    ...plan,
    actions,
    review,
    stats: planStats(actions, {
      reviewed: plan.stats.reviewed,
      pinnedSkipped: plan.stats.pinnedSkipped,
      elapsedMs: plan.stats.elapsedMs,
    }),
    judge: {
      model: run.model,
      ...spent,
      decisions,
      // Possible injections are never the judge's: they are not "unjudged", they are a person's.
      unjudged:
        review.filter((item) => item.kind !== "possible-injection").length -
        decisions.filter((each) => each.outcome === "kept").length,
      errors: judging.failures.map((failure) => `${failure.code}: ${failure.message}`),
    },
  });
}

/** What a verdict does to a review item (see the module's note). */
function outcomeOf(item: ReviewItem, judgement: PairJudgement): JudgeOutcome {
  if (judgement.verdict === "distinct") return "rejected";
  if (item.kind === "possible-duplicate" && judgement.verdict === "same") return "confirmed";
  if (item.kind === "possible-conflict" && judgement.verdict === "replaces") return "confirmed";
  return "kept";
}

/**
 * The merged text: the model's, when it is a faithful wording of the members — no credential,
 * within the size limit and no longer than the members together, every number (as a whole token)
 * and name of every member still in it, and nothing in it that no member says (no number, name or
 * content word of its own) — else the rules' text. A merge `--auto` applies unattended must not
 * carry words a model added, whatever a memory's text asked it to write.
 */
function mergeWording(
  context: MemoryContext,
  proposal: MergeAction,
  judgement: PairJudgement,
  byId: ReadonlyMap<string, MemoryRow>,
): { text: string; by: "llm" | "rules"; note?: string } {
  const rules = (note: string) => ({ text: proposal.text, by: "rules" as const, note });
  const wording = judgement.wording?.trim();
  if (wording === undefined || wording === "") return rules("no wording given");
  const members = proposal.ids.map((id) => byId.get(id)?.text ?? "");
  if (Buffer.byteLength(wording, "utf8") > context.maxTextBytes)
    return rules("the wording is longer than maxTextBytes");
  if (wording.length > members.reduce((sum, text) => sum + text.length, 0))
    return rules("the wording is longer than the memories together");
  if (secretsGuardOf(context).scanner.redact(wording).findings.length > 0)
    return rules("the wording holds a credential");
  const theirNumbers = new Set(members.flatMap(numbersOf));
  const ownNumbers = numbersOf(wording);
  const dropped = [...theirNumbers].filter((number) => !ownNumbers.includes(number));
  const droppedNames = members.flatMap((text) =>
    extractEntities(text)
      .map((entity) => entity.key)
      .filter((name) => !says(wording, name)),
  );
  if (dropped.length + droppedNames.length > 0)
    return rules(`the wording drops ${[...new Set([...dropped, ...droppedNames])].slice(0, 5).join(", ")}`);
  const together = members.join(" \n ");
  const memberTerms = new Set(members.flatMap((text) => [...contentTerms(text)]));
  const added = [
    ...ownNumbers.filter((number) => !theirNumbers.has(number)),
    ...extractEntities(wording)
      .map((entity) => entity.key)
      .filter((name) => !says(together, name)),
    ...[...contentTerms(wording)].filter((term) => !memberTerms.has(term) && !/^\d/.test(term)),
  ];
  if (added.length > 0) return rules(`the wording adds ${[...new Set(added)].slice(0, 5).join(", ")}`);
  return { text: wording, by: "llm" };
}

/** The numbers of a text as whole tokens: "12:45" is one, and is not "12". */
function numbersOf(text: string): string[] {
  return text.match(/\d+(?:[.,:]\d+)*/g) ?? [];
}

/** Whether `text` says `name`: verbatim (case aside), or word for word by stem ("Fridays" / "Friday"). */
function says(text: string, name: string): boolean {
  if (text.toLowerCase().includes(name.toLowerCase())) return true;
  const words = (value: string) => value.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  const stems = new Set(words(text).map(stemWord));
  const wanted = words(name);
  return wanted.length > 0 && wanted.every((word) => stems.has(stemWord(word)));
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
