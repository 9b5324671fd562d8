/**
 * The Sleep view, for the workspace the server names: where MEMORY.md stands, what a promotion
 * would take now (and why, per candidate), the MEMORY.md diff a promotion would write, promoting
 * and rolling the last run back, and the Dream Diary.
 *
 * @module
 */

import { useState } from "preact/hooks";
import { api } from "../api.js";
import { useApp } from "../app-context.js";
import { formatTime } from "../format-time.js";
import { LineDiffView } from "../parts/line-diff-view.js";
import { Pending } from "../parts/pending.js";
import { RollbackControl } from "../parts/rollback-control.js";
import { useLoad, useTask } from "../tasks.js";
import type { Diary, PromoteResult, RollbackResult, SleepStatus } from "../wire.js";
import { SleepExplain } from "./sleep-explain.js";

function StatusFields(props: { readonly status: SleepStatus }) {
  const { status } = props;
  const last = status.lastRun;
  return (
    <dl class="fields">
      <dt>Workspace</dt>
      <dd>
        <code>{status.workspace}</code>
      </dd>
      <dt>MEMORY.md</dt>
      <dd>
        {status.memoryChars.toLocaleString()} of {status.budgetChars.toLocaleString()} characters{" "}
        <meter
          min={0}
          max={status.budgetChars}
          value={status.memoryChars}
          aria-label="MEMORY.md budget used"
        />
      </dd>
      <dt>Indexed notes</dt>
      <dd>{status.indexedFiles}</dd>
      <dt>Recalled ranges</dt>
      <dd>
        {status.entries} ({status.promotedEntries} promoted)
      </dd>
      <dt>Last run</dt>
      <dd>
        {last === null ? (
          "none yet"
        ) : (
          <>
            <code>{last.id}</code> at {formatTime(last.committedAt)}, {last.promoted} promoted
            {last.undoneAt !== null && `, rolled back ${formatTime(last.undoneAt)}`}
          </>
        )}
      </dd>
    </dl>
  );
}

function PromoteOutcome(props: { readonly result: PromoteResult }) {
  const { result } = props;
  return (
    <section class="promotion" aria-labelledby="promotion-title">
      <h3 id="promotion-title">{result.applied ? "Promoted" : "Promotion preview"}</h3>
      <p role="status">
        {result.applied
          ? `${result.promoted.length} promoted${result.runId === null ? "" : ` in run ${result.runId}`}.`
          : // A draft's `promoted` is what it would write; `candidates` also holds those refused or held already.
            `${result.promoted.length} ${result.promoted.length === 1 ? "range" : "ranges"} would be promoted.`}
        {result.refused.length > 0 && ` ${result.refused.length} refused.`}
      </p>
      {result.refused.length > 0 && (
        <ul>
          {result.refused.map((refused) => (
            <li key={refused.key}>
              <code>{refused.address}</code>: {refused.reason}
            </li>
          ))}
        </ul>
      )}
      {result.memoryFileDiff !== undefined && (
        <LineDiffView
          label="MEMORY.md"
          before={result.memoryFileDiff.before}
          after={result.memoryFileDiff.after}
        />
      )}
    </section>
  );
}

/** The diary as a person reads it: without the `<!-- openclaw:dreaming:… -->` markers tools find it by. */
function readableDiary(text: string): string {
  return text.replace(/[ \t]*<!--[\s\S]*?-->[ \t]*\n?/g, "");
}

export function SleepView() {
  const app = useApp();
  const task = useTask();
  const [explained, setExplained] = useState<string | null>(null);
  const [promoted, setPromoted] = useState<PromoteResult | null>(null);
  const [rolledBack, setRolledBack] = useState<RollbackResult | null>(null);
  const status = useLoad(() => api<SleepStatus>("/lucid/v1/sleep/status"), []);
  const diary = useLoad(() => api<Diary>("/lucid/v1/sleep/diary"), []);

  const promote = async (apply: boolean) => {
    const result = await task.run(() =>
      api<PromoteResult>("/lucid/v1/sleep/promote", { method: "POST", body: { apply } }),
    );
    if (result === undefined) return;
    setPromoted(result);
    setRolledBack(null);
    if (apply) {
      app.changed();
      // Its explanation has changed (promoted now): asked again, it is read again.
      setExplained(null);
      status.reload();
      diary.reload();
    }
  };
  const rolledBackNow = (result: RollbackResult) => {
    setRolledBack(result);
    setPromoted(null);
    setExplained(null);
    app.changed();
    status.reload();
  };

  const s = status.data;
  return (
    <section aria-labelledby="sleep-title" aria-busy={status.busy || task.busy}>
      <h2 id="sleep-title">Sleep</h2>
      {s === undefined ? (
        <Pending loaded={status} what="The workspace's status" />
      ) : (
        <>
          <StatusFields status={s} />
          {s.blockers.length > 0 && (
            <section aria-labelledby="blockers-title">
              <h3 id="blockers-title">Why nothing would promote</h3>
              <ul class="blockers">
                {/* One line per reason: several candidates can be held back by the same one. */}
                {[...new Set(s.blockers.map((blocker) => blocker.message))].map((message) => (
                  <li key={message}>{message}</li>
                ))}
              </ul>
            </section>
          )}
          <section aria-labelledby="candidates-title">
            <h3 id="candidates-title">What would promote ({s.wouldPromote.length})</h3>
            {s.wouldPromote.length > 0 && (
              <div class="table-wrap">
                <table class="candidates">
                  <thead>
                    <tr>
                      <th scope="col">Rank</th>
                      <th scope="col">Range</th>
                      <th scope="col">Snippet</th>
                      <th scope="col">Score</th>
                      <th scope="col">Recalls</th>
                      <th scope="col">Queries</th>
                      <th scope="col">Why</th>
                    </tr>
                  </thead>
                  <tbody>
                    {s.wouldPromote.map((candidate) => (
                      <tr key={candidate.key}>
                        <td>{candidate.rank}</td>
                        <th scope="row">
                          <code>{candidate.address}</code>
                        </th>
                        <td>{candidate.snippet}</td>
                        <td>{candidate.score.toFixed(3)}</td>
                        <td>{candidate.recalls}</td>
                        <td>{candidate.uniqueQueries}</td>
                        <td>
                          <button
                            type="button"
                            aria-label={`Explain ${candidate.address}`}
                            aria-pressed={explained === candidate.key}
                            onClick={() => setExplained(explained === candidate.key ? null : candidate.key)}
                          >
                            Explain
                          </button>
                        </td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              </div>
            )}
            {explained !== null && <SleepExplain target={explained} />}
          </section>
        </>
      )}
      <div class="toolbar">
        <button type="button" disabled={task.busy} onClick={() => promote(false)}>
          Preview promotion
        </button>
        <button
          type="button"
          class="primary"
          disabled={task.busy || s === undefined || s.wouldPromote.length === 0}
          onClick={() => promote(true)}
        >
          Promote
        </button>
        <RollbackControl
          runId={s?.lastRun?.id ?? null}
          disabled={task.busy || s?.lastRun === null || s?.lastRun?.undoneAt !== null}
          onRolledBack={rolledBackNow}
        />
      </div>
      {promoted !== null && <PromoteOutcome result={promoted} />}
      {rolledBack !== null && (
        <p role="status" class="done">
          Run <code>{rolledBack.runId}</code> rolled back: MEMORY.md{" "}
          {rolledBack.restored ? "restored" : "unchanged"}, {rolledBack.unpromoted} unpromoted,{" "}
          {rolledBack.removedMemories} memories removed.
        </p>
      )}
      <section aria-labelledby="diary-title">
        <h3 id="diary-title">Dream Diary</h3>
        {diary.data === undefined ? (
          <Pending loaded={diary} what="The diary" />
        ) : diary.data.exists ? (
          <pre class="diary">{readableDiary(diary.data.text)}</pre>
        ) : (
          <p class="hint">No diary yet ({diary.data.path}).</p>
        )}
      </section>
    </section>
  );
}
