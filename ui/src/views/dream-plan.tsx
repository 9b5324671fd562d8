/**
 * A dream plan laid out for review, grouped by kind: merges (the members' texts side by side with
 * the merged text), conflicts (A and B side by side, with a choice each), prunes, rewrites (before
 * and after), and the review tier (what the engine is unsure of, accepted only when ticked). Each
 * says why (`why.detail`); each merge, prune and rewrite can be declined on its own. The decisions
 * live in the Dream view; this renders them.
 *
 * @module
 */

import type { ComponentChildren } from "preact";
import { TextsSideBySide } from "../parts/texts-side-by-side.js";
import type {
  ConflictAction,
  ConflictChoice,
  DeleteAction,
  DreamAction,
  MergeAction,
  PlanResponse,
  RewriteAction,
} from "../wire.js";
import { ConflictChoiceGroup } from "./conflict-choice.js";

export interface Decisions {
  /** By conflict key, `"<ids[0]>:<ids[1]>"`; absent is skip. */
  readonly conflicts: Readonly<Record<string, ConflictChoice>>;
  /** Indices into `plan.review`. */
  readonly accepted: ReadonlySet<number>;
  /** Indices into `plan.actions` the person said no to (a merge, a prune, a rewrite). */
  readonly declined: ReadonlySet<number>;
}

export const conflictKey = (action: ConflictAction) => `${action.ids[0]}:${action.ids[1]}`;

type Memories = PlanResponse["memories"];

function Group(props: {
  readonly id: string;
  readonly title: string;
  readonly count: number;
  readonly children: ComponentChildren;
}) {
  if (props.count === 0) return null;
  return (
    <section class="group" aria-labelledby={props.id}>
      <h4 id={props.id}>
        {props.title} ({props.count})
      </h4>
      <ol class="items">{props.children}</ol>
    </section>
  );
}

const Why = (props: { readonly detail: string }) => <p class="why-detail">Why: {props.detail}</p>;

/** "Apply this merge", ticked until the person declines it. */
function Keep(props: { readonly what: string; readonly kept: boolean; onKeep(kept: boolean): void }) {
  return (
    <label class="accept">
      <input
        type="checkbox"
        checked={props.kept}
        onChange={(event) => props.onKeep(event.currentTarget.checked)}
      />
      Apply this {props.what}
    </label>
  );
}

function Merge(props: { readonly action: MergeAction; readonly memories: Memories }) {
  const { action } = props;
  return (
    <>
      <TextsSideBySide
        memories={props.memories}
        sides={action.ids.map((id, index) => ({
          id,
          label: `Memory ${index + 1}`,
          ...(id === action.keep ? { note: "kept, with the merged text" } : {}),
        }))}
      />
      <p class="merged">
        <span class="label">Merged text</span> <q>{action.text}</q>
      </p>
    </>
  );
}

function ConflictSides(props: { readonly action: ConflictAction; readonly memories: Memories }) {
  const { action } = props;
  return (
    <>
      <p class="topic">
        <span class="label">Topic</span> {action.topic}
      </p>
      <TextsSideBySide
        memories={props.memories}
        sides={action.ids.map((id, side) => ({
          id,
          label: side === 0 ? "A" : "B",
          ...(action.suggested === id ? { note: "suggested winner" } : {}),
        }))}
      />
    </>
  );
}

function Prune(props: { readonly action: DeleteAction; readonly memories: Memories }) {
  const id = props.action.ids[0];
  return (
    <p class="pruned">
      <q>{props.memories[id]?.memory ?? id}</q> <span class="tag">{props.action.reason}</span>
    </p>
  );
}

function Rewrite(props: { readonly action: RewriteAction; readonly memories: Memories }) {
  const id = props.action.ids[0];
  return (
    <div class="rewrite">
      <p>
        <span class="label">Before</span> <q>{props.memories[id]?.memory ?? id}</q>
      </p>
      <p>
        <span class="label">After</span> <q>{props.action.text}</q>
      </p>
      <p class="muted">Reasons: {props.action.reasons.join(", ")}</p>
    </div>
  );
}

export function DreamPlanView(props: {
  readonly planned: PlanResponse;
  readonly decisions: Decisions;
  onConflict(key: string, choice: ConflictChoice): void;
  onAccept(index: number, accepted: boolean): void;
  onDecline(actionIndex: number, declined: boolean): void;
}) {
  const { plan, memories } = props.planned;
  const { decisions } = props;
  const merges = plan.actions.filter((action): action is MergeAction => action.kind === "merge");
  const conflicts = plan.actions.filter((action): action is ConflictAction => action.kind === "conflict");
  const prunes = plan.actions.filter((action): action is DeleteAction => action.kind === "delete");
  const rewrites = plan.actions.filter((action): action is RewriteAction => action.kind === "rewrite");
  const choiceOf = (action: ConflictAction) => decisions.conflicts[conflictKey(action)] ?? "skip";
  /** The checkbox that declines (or keeps) one action, by its index in the plan. */
  const keep = (action: DreamAction, what: string) => {
    const index = plan.actions.indexOf(action);
    return (
      <Keep
        what={what}
        kept={!decisions.declined.has(index)}
        onKeep={(kept) => props.onDecline(index, !kept)}
      />
    );
  };
  const declinedClass = (action: DreamAction) =>
    decisions.declined.has(plan.actions.indexOf(action)) ? "declined" : undefined;

  return (
    <div class="plan">
      <Group id="plan-merges" title="Merges" count={merges.length}>
        {merges.map((action, index) => (
          <li key={action.keep}>
            <article aria-label={`Merge ${index + 1}`} class={declinedClass(action)}>
              <Merge action={action} memories={memories} />
              <Why detail={action.why.detail} />
              {keep(action, "merge")}
            </article>
          </li>
        ))}
      </Group>
      <Group id="plan-conflicts" title="Conflicts" count={conflicts.length}>
        {conflicts.map((action, index) => (
          <li key={conflictKey(action)}>
            <fieldset class="conflict">
              <legend>Conflict {index + 1}</legend>
              <ConflictSides action={action} memories={memories} />
              <ConflictChoiceGroup
                name={`conflict ${index + 1}`}
                label={`Decision for conflict ${index + 1}`}
                value={choiceOf(action)}
                onChange={(choice) => props.onConflict(conflictKey(action), choice)}
              />
              <Why detail={action.why.detail} />
            </fieldset>
          </li>
        ))}
      </Group>
      <Group id="plan-prunes" title="Prunes" count={prunes.length}>
        {prunes.map((action, index) => (
          <li key={action.ids[0]}>
            <article aria-label={`Prune ${index + 1}`} class={declinedClass(action)}>
              <Prune action={action} memories={memories} />
              <Why detail={action.why.detail} />
              {keep(action, "prune")}
            </article>
          </li>
        ))}
      </Group>
      <Group id="plan-rewrites" title="Rewrites" count={rewrites.length}>
        {rewrites.map((action, index) => (
          <li key={action.ids[0]}>
            <article aria-label={`Rewrite ${index + 1}`} class={declinedClass(action)}>
              <Rewrite action={action} memories={memories} />
              <Why detail={action.why.detail} />
              {keep(action, "rewrite")}
            </article>
          </li>
        ))}
      </Group>
      <Group id="plan-review" title="For review" count={plan.review.length}>
        {plan.review.map((item, index) => {
          const accepted = decisions.accepted.has(index);
          const { proposal } = item;
          return (
            <li key={proposal.ids.join(":")}>
              <fieldset class="review">
                <legend>
                  Review {index + 1}: {item.kind.replace("-", " ")}
                </legend>
                {proposal.kind === "merge" ? (
                  <Merge action={proposal} memories={memories} />
                ) : proposal.kind === "conflict" ? (
                  <ConflictSides action={proposal} memories={memories} />
                ) : (
                  <Prune action={proposal} memories={memories} />
                )}
                <Why detail={item.why.detail} />
                <label class="accept">
                  <input
                    type="checkbox"
                    checked={accepted}
                    onChange={(event) => props.onAccept(index, event.currentTarget.checked)}
                  />
                  Accept
                  {proposal.kind === "merge"
                    ? " (merge them)"
                    : proposal.kind === "conflict"
                      ? " (treat as a conflict)"
                      : " (delete it)"}
                </label>
                {accepted && proposal.kind === "conflict" && (
                  <ConflictChoiceGroup
                    name={`review ${index + 1}`}
                    label={`Decision for review ${index + 1}`}
                    value={choiceOf(proposal)}
                    onChange={(choice) => props.onConflict(conflictKey(proposal), choice)}
                  />
                )}
              </fieldset>
            </li>
          );
        })}
      </Group>
    </div>
  );
}
