/**
 * Rolling the workspace's last promotion back, as a person does a destructive thing: a question
 * first (MEMORY.md goes back, the promoted memories go), then the rollback; when MEMORY.md was
 * edited since the run, the server refuses, and the page says what changed and offers to roll back
 * anyway (`force`), which discards those edits too.
 *
 * @module
 */

import { useEffect, useRef, useState } from "preact/hooks";
import { type ApiError, api } from "../api.js";
import { useTask } from "../tasks.js";
import type { RollbackResult } from "../wire.js";

type Stage = "idle" | "confirm" | "refused";

export function RollbackControl(props: {
  readonly runId: string | null;
  readonly disabled: boolean;
  onRolledBack(result: RollbackResult): void;
}) {
  const task = useTask();
  const [stage, setStage] = useState<Stage>("idle");
  const [refusal, setRefusal] = useState<ApiError | null>(null);
  const cancel = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (stage !== "idle") cancel.current?.focus();
  }, [stage]);

  const rollback = async (force: boolean) => {
    const done = await task.run(
      () => api<RollbackResult>("/lucid/v1/sleep/rollback", { method: "POST", body: { force } }),
      (error) => {
        if (error.code !== "UNDO_CONFLICT") return false;
        setRefusal(error);
        setStage("refused");
        return true;
      },
    );
    if (done === undefined) return;
    setStage("idle");
    setRefusal(null);
    props.onRolledBack(done);
  };

  if (stage === "idle") {
    return (
      <button type="button" disabled={props.disabled || task.busy} onClick={() => setStage("confirm")}>
        Roll back last run
      </button>
    );
  }
  const lines = (name: string) => {
    const count = (refusal?.details?.[name] as readonly unknown[] | undefined)?.length ?? 0;
    return `${count} ${count === 1 ? "line" : "lines"} ${name}`;
  };
  const refused = stage === "refused";
  return (
    <fieldset class={refused ? "refusal" : "confirm"}>
      <legend>{refused ? "Roll back refused" : "Roll back the last promotion?"}</legend>
      <p>
        {refused
          ? `MEMORY.md was edited since run ${props.runId ?? ""} (${lines("added")}, ${lines("removed")}). Rolling back anyway discards those edits too.`
          : `MEMORY.md goes back to what it was before run ${props.runId ?? ""}, and the memories it promoted are removed.`}
      </p>
      <button type="button" class="danger" disabled={task.busy} onClick={() => rollback(refused)}>
        {refused ? "Roll back anyway" : "Roll back"}
      </button>
      <button type="button" ref={cancel} onClick={() => setStage("idle")}>
        Cancel
      </button>
    </fieldset>
  );
}
