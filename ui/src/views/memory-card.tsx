/**
 * One memory in the list: its text (a button that opens it), its score and why; opened, its
 * fields and what a person can do to it — edit the text inline (Enter saves, Escape cancels), pin
 * or unpin, delete (after a confirm step), read its history.
 *
 * @module
 */

import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api.js";
import { useApp } from "../app-context.js";
import { formatTime } from "../format-time.js";
import { useTask } from "../tasks.js";
import type { Memory } from "../wire.js";
import { MemoryHistory } from "./memory-history.js";
import { ScoreWhy } from "./score-why.js";

type Mode = "view" | "edit" | "confirm-delete";

const isPinned = (memory: Memory) => memory.metadata.pinned === true;

export function MemoryCard(props: {
  readonly memory: Memory;
  readonly open: boolean;
  onToggle(): void;
  onChange(memory: Memory): void;
  onDelete(id: string): void;
}) {
  const { memory, open } = props;
  const app = useApp();
  const task = useTask();
  const [mode, setMode] = useState<Mode>("view");
  const [draft, setDraft] = useState(memory.memory);
  const [showHistory, setShowHistory] = useState(false);
  const toggle = useRef<HTMLButtonElement>(null);
  const editor = useRef<HTMLInputElement>(null);
  const cancelDelete = useRef<HTMLButtonElement>(null);
  const detailsId = `memory-${memory.id}`;
  const path = `/v1/memories/${encodeURIComponent(memory.id)}/`;

  useEffect(() => {
    if (mode === "edit") editor.current?.focus();
    // The question replaces the Delete button: the cursor goes to its harmless answer.
    if (mode === "confirm-delete") cancelDelete.current?.focus();
  }, [mode]);

  const back = () => {
    setMode("view");
    toggle.current?.focus();
  };
  const save = async () => {
    const updated = await task.run(() => api<Memory>(path, { method: "PUT", body: { text: draft } }));
    if (updated === undefined) return;
    props.onChange(updated);
    back();
  };
  const pin = async () => {
    const updated = await task.run(() =>
      api<Memory>(path, { method: "PUT", body: { metadata: { pinned: isPinned(memory) ? null : true } } }),
    );
    if (updated !== undefined) props.onChange(updated);
  };
  const remove = async () => {
    const done = await task.run(() => api<{ message: string }>(path, { method: "DELETE" }));
    if (done === undefined) return;
    props.onDelete(memory.id);
    app.changed();
  };

  return (
    <li class={open ? "memory open" : "memory"} aria-busy={task.busy}>
      <button
        ref={toggle}
        type="button"
        class="toggle"
        data-memory-toggle=""
        aria-expanded={open}
        aria-controls={open ? detailsId : undefined}
        onClick={props.onToggle}
      >
        <span class="text">{memory.memory}</span>
        {isPinned(memory) && <span class="tag pinned">pinned</span>}
        {memory.score !== undefined && <span class="score">score {memory.score.toFixed(2)}</span>}
      </button>
      {memory.score_breakdown !== undefined && <ScoreWhy breakdown={memory.score_breakdown} />}
      {open && (
        <div id={detailsId} class="details">
          <dl class="fields">
            <dt>ID</dt>
            <dd>
              <code>{memory.id}</code>
            </dd>
            <dt>Created</dt>
            <dd>{formatTime(memory.created_at)}</dd>
            <dt>Updated</dt>
            <dd>{formatTime(memory.updated_at)}</dd>
            {memory.categories.length > 0 && (
              <>
                <dt>Category</dt>
                <dd>{memory.categories.join(", ")}</dd>
              </>
            )}
          </dl>
          {mode === "edit" ? (
            <form
              class="edit"
              onSubmit={(event) => {
                event.preventDefault();
                void save();
              }}
            >
              <label for={`${detailsId}-text`}>Memory text</label>
              <input
                id={`${detailsId}-text`}
                ref={editor}
                value={draft}
                onInput={(event) => setDraft(event.currentTarget.value)}
                onKeyDown={(event) => {
                  if (event.key === "Escape") {
                    event.preventDefault();
                    setDraft(memory.memory);
                    back();
                  }
                }}
              />
              <button type="submit" disabled={task.busy || draft.trim() === ""}>
                Save
              </button>
              <button type="button" onClick={back}>
                Cancel
              </button>
            </form>
          ) : mode === "confirm-delete" ? (
            <fieldset class="confirm">
              <legend>Delete this memory?</legend>
              <button type="button" class="danger" disabled={task.busy} onClick={remove}>
                Confirm delete
              </button>
              <button type="button" ref={cancelDelete} onClick={back}>
                Cancel
              </button>
            </fieldset>
          ) : (
            <div class="actions">
              <button
                type="button"
                onClick={() => {
                  setDraft(memory.memory);
                  setMode("edit");
                }}
              >
                Edit
              </button>
              <button type="button" disabled={task.busy} onClick={pin}>
                {isPinned(memory) ? "Unpin" : "Pin"}
              </button>
              <button type="button" onClick={() => setMode("confirm-delete")}>
                Delete
              </button>
              <button type="button" aria-expanded={showHistory} onClick={() => setShowHistory(!showHistory)}>
                History
              </button>
            </div>
          )}
          {showHistory && <MemoryHistory id={memory.id} version={memory.updated_at} />}
        </div>
      )}
    </li>
  );
}
