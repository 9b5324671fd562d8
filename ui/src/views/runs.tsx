/**
 * The Runs view: the scope's dream runs, newest first (all of them when no scope is chosen), each
 * with its counts, whether it was undone, its details and an Undo.
 *
 * @module
 */

import { useState } from "preact/hooks";
import { api } from "../api.js";
import { useApp } from "../app-context.js";
import { formatScope } from "../format-scope.js";
import { formatTime } from "../format-time.js";
import { countsLine } from "../parts/apply-counts.js";
import { UndoControl, UndoneLine } from "../parts/undo-control.js";
import { useLoad } from "../tasks.js";
import type { RunSummary, UndoResult } from "../wire.js";
import { RunDetailsView } from "./run-details.js";

const LIMIT = 50;

export function RunsView() {
  const app = useApp();
  const [shown, setShown] = useState<string | null>(null);
  const [undone, setUndone] = useState<UndoResult | null>(null);
  const runs = useLoad(
    () => api<{ runs: RunSummary[] }>("/lucid/v1/dream/runs", { query: { ...app.scope, limit: LIMIT } }),
    [app.scope],
  );
  const list = runs.data?.runs ?? [];
  const shownRun = list.find((run) => run.id === shown);
  return (
    <section aria-labelledby="runs-title" aria-busy={runs.busy}>
      <h2 id="runs-title">Runs</h2>
      <div class="toolbar">
        <button type="button" onClick={runs.reload} disabled={runs.busy}>
          {runs.busy ? "Loading…" : "Refresh"}
        </button>
      </div>
      {undone !== null && (
        <p role="status" class="done">
          <UndoneLine result={undone} />
        </p>
      )}
      {runs.data !== undefined && list.length === 0 && <p class="hint">No dream runs yet.</p>}
      {list.length > 0 && (
        <div class="table-wrap">
          <table class="runs">
            <caption class="visually-hidden">Dream runs, newest first</caption>
            <thead>
              <tr>
                <th scope="col">Run</th>
                <th scope="col">Mode</th>
                <th scope="col">Committed</th>
                <th scope="col">Counts</th>
                <th scope="col">State</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {list.map((run) => (
                <tr key={run.id}>
                  <th scope="row">
                    <code>{run.id}</code>
                    <div class="muted">{formatScope(run.scope)}</div>
                  </th>
                  <td>{run.mode}</td>
                  <td>{formatTime(run.committedAt)}</td>
                  <td>{countsLine(run.counts)}</td>
                  <td>{run.undoneAt === null ? "active" : `undone ${formatTime(run.undoneAt)}`}</td>
                  <td>
                    <div class="row-actions">
                      <button
                        type="button"
                        aria-label={`Details of run ${run.id}`}
                        aria-pressed={shown === run.id}
                        onClick={() => setShown(shown === run.id ? null : run.id)}
                      >
                        Details
                      </button>
                      {run.undoneAt === null && (
                        <UndoControl
                          runId={run.id}
                          label="Undo"
                          onUndone={(result) => {
                            setUndone(result);
                            runs.reload();
                          }}
                        />
                      )}
                    </div>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {shown !== null && <RunDetailsView runId={shown} version={shownRun?.undoneAt ?? null} />}
    </section>
  );
}
