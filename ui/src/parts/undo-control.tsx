/**
 * Undoing a dream run (`POST /lucid/v1/dream/runs/{id}/undo`). When a memory the run touched has
 * changed since, the server refuses (409 `UNDO_CONFLICT`); this says so, names them, and offers to
 * undo anyway (`force`), which overwrites those changes.
 *
 * @module
 */

import { useState } from "preact/hooks";
import { type ApiError, api } from "../api.js";
import { useApp } from "../app-context.js";
import { useTask } from "../tasks.js";
import type { UndoResult } from "../wire.js";

export function UndoControl(props: {
  readonly runId: string;
  readonly label: string;
  /** Given, the caller shows the result (the Runs view lists the run as undone); else this does. */
  onUndone?(result: UndoResult): void;
}) {
  const app = useApp();
  const task = useTask();
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const [result, setResult] = useState<UndoResult | null>(null);

  const undo = async (force: boolean) => {
    setRefusal(null);
    const done = await task.run(
      () =>
        api<UndoResult>(`/lucid/v1/dream/runs/${encodeURIComponent(props.runId)}/undo`, {
          method: "POST",
          body: { force },
        }),
      (error) => {
        if (error.code !== "UNDO_CONFLICT") return false;
        setRefusal(error);
        return true;
      },
    );
    if (done === undefined) return;
    setResult(done);
    app.changed();
    props.onUndone?.(done);
  };

  if (result !== null) {
    if (props.onUndone !== undefined) return null;
    return (
      <p role="status" class="done">
        <UndoneLine result={result} />
      </p>
    );
  }
  const changed = (refusal?.details?.changed as readonly string[] | undefined) ?? [];
  return (
    <div class="undo">
      <button
        type="button"
        disabled={task.busy}
        aria-describedby={refusal === null ? undefined : `undo-${props.runId}-why`}
        onClick={() => undo(false)}
      >
        {task.busy ? "Undoing…" : props.label}
      </button>
      {refusal !== null && (
        <fieldset class="refusal">
          <legend>Undo refused</legend>
          <p id={`undo-${props.runId}-why`}>
            {changed.length > 0
              ? `${changed.length} ${changed.length === 1 ? "memory has" : "memories have"} changed since this run (${changed.join(", ")}). Undoing anyway puts them back as they were before the run, losing those changes.`
              : refusal.detail}
          </p>
          <button type="button" class="danger" disabled={task.busy} onClick={() => undo(true)}>
            Undo anyway
          </button>
        </fieldset>
      )}
    </div>
  );
}

/** What an undo did, in one sentence: restored, removed, and what it left as it was. */
export function UndoneLine(props: { readonly result: UndoResult }) {
  const { result } = props;
  return (
    <>
      Run <code>{result.runId}</code> undone: {result.restored} restored, {result.removed} removed
      {result.keptDuplicates.length > 0 && `, ${result.keptDuplicates.length} kept as stored again since`}
      {result.keptOtherScope.length > 0 &&
        `, ${result.keptOtherScope.length} left as they are (their ids now hold another scope's memories)`}
      .
    </>
  );
}
