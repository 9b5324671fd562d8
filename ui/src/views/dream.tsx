/**
 * The Dream view: plan a dream of the scope, review it (`DreamPlanView`) with a decision per
 * conflict, the review items accepted and any merge, prune or rewrite declined, apply it, and see what it did — with the run's id and a
 * way to undo it. A plan applies once; after that (or after an hour) plan again.
 *
 * @module
 */

import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api.js";
import { hasScope, useApp } from "../app-context.js";
import { formatTime } from "../format-time.js";
import { ApplyCountsList } from "../parts/apply-counts.js";
import { UndoControl } from "../parts/undo-control.js";
import { useTask } from "../tasks.js";
import type { ApplyResponse, ConflictChoice, PlanResponse } from "../wire.js";
import { conflictKey, type Decisions, DreamPlanView } from "./dream-plan.js";

const NO_DECISIONS: Decisions = { conflicts: {}, accepted: new Set(), declined: new Set() };

/** The apply body: only the conflicts the plan (with the accepted review items) has, and not skips. */
function applyBody(planned: PlanResponse, decisions: Decisions) {
  const { plan } = planned;
  const keys = new Set([
    ...plan.actions.flatMap((action) => (action.kind === "conflict" ? [conflictKey(action)] : [])),
    ...plan.review.flatMap((item, index) =>
      item.proposal.kind === "conflict" && decisions.accepted.has(index) ? [conflictKey(item.proposal)] : [],
    ),
  ]);
  const conflicts = Object.fromEntries(
    Object.entries(decisions.conflicts).filter(([key, choice]) => keys.has(key) && choice !== "skip"),
  );
  const sorted = (indices: ReadonlySet<number>) => [...indices].sort((a, b) => a - b);
  return {
    planId: planned.planId,
    conflicts,
    accept: sorted(decisions.accepted),
    decline: sorted(decisions.declined),
  };
}

export function DreamView() {
  const app = useApp();
  const task = useTask();
  const [llm, setLlm] = useState(false);
  const [planned, setPlanned] = useState<PlanResponse | null>(null);
  const [decisions, setDecisions] = useState<Decisions>(NO_DECISIONS);
  const [applied, setApplied] = useState<ApplyResponse | null>(null);
  const appliedTitle = useRef<HTMLHeadingElement>(null);
  // Apply took its button (and the plan) off the page: the cursor goes to what it did.
  useEffect(() => {
    if (applied !== null) appliedTitle.current?.focus();
  }, [applied]);

  // Another scope: the plan shown is not its.
  useEffect(() => {
    setPlanned(null);
    setApplied(null);
  }, [app.scope]);

  if (!hasScope(app)) return <p class="hint">Choose a scope above to plan a dream of it.</p>;

  const plan = async () => {
    const made = await task.run(() =>
      api<PlanResponse>("/lucid/v1/dream/plan", {
        method: "POST",
        body: { ...app.scope, ...(llm ? { llm } : {}) },
      }),
    );
    if (made === undefined) return;
    setPlanned(made);
    setDecisions(NO_DECISIONS);
    setApplied(null);
  };
  const apply = async () => {
    if (planned === null) return;
    const done = await task.run(() =>
      api<ApplyResponse>("/lucid/v1/dream/apply", { method: "POST", body: applyBody(planned, decisions) }),
    );
    if (done === undefined) return;
    setApplied(done);
    setPlanned(null);
    if (done.applied) app.changed();
  };

  const empty = planned !== null && planned.plan.actions.length === 0 && planned.plan.review.length === 0;
  return (
    <section aria-labelledby="dream-title" aria-busy={task.busy}>
      <h2 id="dream-title">Dream</h2>
      <p class="muted">
        A dream proposes merges of duplicates, conflicts to settle, prunes and rewrites, and asks you about
        memories that read as instructions to the agent. Nothing changes until you apply, and a run can be
        undone.
      </p>
      <div class="toolbar">
        <button type="button" class="primary" disabled={task.busy} onClick={plan}>
          {task.busy && planned === null ? "Planning…" : "Plan a dream"}
        </button>
        {app.info?.llm === true && (
          <label class="inline">
            <input type="checkbox" checked={llm} onChange={(event) => setLlm(event.currentTarget.checked)} />
            Ask the LLM to judge the review items
          </label>
        )}
      </div>
      {planned !== null && (
        <section aria-labelledby="plan-title" class="planned">
          <h3 id="plan-title">Plan</h3>
          <p class="muted">
            {planned.plan.reviewed} memories reviewed. Plan {planned.planId}, valid until{" "}
            {formatTime(planned.expiresAt)}.
          </p>
          {empty ? (
            <p class="empty-plan">Nothing to consolidate.</p>
          ) : (
            <>
              <DreamPlanView
                planned={planned}
                decisions={decisions}
                onConflict={(key, choice: ConflictChoice) =>
                  setDecisions({ ...decisions, conflicts: { ...decisions.conflicts, [key]: choice } })
                }
                onAccept={(index, accepted) => {
                  const next = new Set(decisions.accepted);
                  if (accepted) next.add(index);
                  else next.delete(index);
                  setDecisions({ ...decisions, accepted: next });
                }}
                onDecline={(index, declined) => {
                  const next = new Set(decisions.declined);
                  if (declined) next.add(index);
                  else next.delete(index);
                  setDecisions({ ...decisions, declined: next });
                }}
              />
              <div class="toolbar">
                <button type="button" class="primary" disabled={task.busy} onClick={apply}>
                  {task.busy ? "Applying…" : "Apply"}
                </button>
              </div>
            </>
          )}
        </section>
      )}
      {applied !== null && (
        <section aria-labelledby="applied-title" class="applied">
          <h3 id="applied-title" ref={appliedTitle} tabIndex={-1}>
            {applied.applied ? "Applied" : "Nothing applied"}
          </h3>
          <ApplyCountsList counts={applied.counts} label="Apply counts" />
          {applied.runId !== null && (
            <>
              <p>
                Run <code>{applied.runId}</code>
              </p>
              <UndoControl runId={applied.runId} label="Undo this run" />
            </>
          )}
        </section>
      )}
    </section>
  );
}
