/**
 * One dream run (`GET /lucid/v1/dream/runs/{id}`): its counts, each action's outcome with the texts
 * it acted on (and the text a merge or rewrite wrote), and every memory it touched with its text
 * before the run and what the run did to it.
 *
 * @module
 */

import { api } from "../api.js";
import { ApplyCountsList } from "../parts/apply-counts.js";
import { Pending } from "../parts/pending.js";
import { useLoad } from "../tasks.js";
import type { DreamAction, MemoryChange, RunDetails } from "../wire.js";

/** An action's memories by their text (the id of one no longer stored), and the text it wrote. */
function ActionTexts(props: {
  readonly ids: readonly string[];
  readonly before: ReadonlyMap<string, string>;
  readonly action: DreamAction | undefined;
}) {
  const { action } = props;
  return (
    <>
      {props.ids.map((id, index) => {
        const text = props.before.get(id);
        return (
          <span key={id}>
            {index > 0 && (action?.kind === "conflict" ? " vs " : ", ")}
            {text === undefined ? <code>{id}</code> : <q title={id}>{text}</q>}
          </span>
        );
      })}
      {(action?.kind === "merge" || action?.kind === "rewrite") && (
        <>
          {" "}
          → <q>{action.text}</q>
        </>
      )}
    </>
  );
}

function effect(change: MemoryChange): string {
  if (change.before === null) return "created by the run";
  if (change.after === null) return "deleted";
  return "changed";
}

export function RunDetailsView(props: { readonly runId: string; readonly version: string | null }) {
  const details = useLoad(
    () => api<RunDetails>(`/lucid/v1/dream/runs/${encodeURIComponent(props.runId)}`),
    [props.runId, props.version],
  );
  if (details.data === undefined) return <Pending loaded={details} what={`Run ${props.runId}`} />;
  const { run, memories, named } = details.data;
  // A memory's text before the run where it touched it; as it is now where it did not.
  const before = new Map([
    ...Object.values(named).map((memory) => [memory.id, memory.memory] as const),
    ...memories.flatMap((change) =>
      change.before === null ? [] : [[change.memoryId, change.before.text] as const],
    ),
  ]);
  return (
    <section class="run-details" aria-labelledby="run-details-title">
      <h3 id="run-details-title">
        Run <code>{run.id}</code>
      </h3>
      <ApplyCountsList counts={run.outcome.counts} label={`Counts of run ${run.id}`} />
      <h4>Actions</h4>
      <ul class="outcomes">
        {run.outcome.actions.map((action) => (
          <li key={action.index}>
            <span class="tag">{action.kind}</span>{" "}
            <span class={`status ${action.status}`}>{action.status}</span>{" "}
            <ActionTexts ids={action.ids} before={before} action={run.plan.actions[action.index]} />
            {action.note !== undefined && <span class="muted"> — {action.note}</span>}
          </li>
        ))}
      </ul>
      <h4>Memories it touched</h4>
      <table class="touched">
        <thead>
          <tr>
            <th scope="col">Memory</th>
            <th scope="col">Before the run</th>
            <th scope="col">What the run did</th>
          </tr>
        </thead>
        <tbody>
          {memories.map((change) => (
            <tr key={change.memoryId}>
              <td>
                <code>{change.memoryId}</code>
              </td>
              <td>{change.before === null ? <em>(did not exist)</em> : change.before.text}</td>
              <td>{effect(change)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}
