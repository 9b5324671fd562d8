/**
 * One memory's history (`GET /v1/memories/{id}/history/`): each event with the text before and
 * after it (or, for an update that kept the text, what it changed), oldest first as the server
 * lists them.
 *
 * @module
 */

import { api } from "../api.js";
import { formatTime } from "../format-time.js";
import { Pending } from "../parts/pending.js";
import { useLoad } from "../tasks.js";
import type { HistoryRow } from "../wire.js";

export function MemoryHistory(props: { readonly id: string; readonly version: string }) {
  const history = useLoad(
    () => api<HistoryRow[]>(`/v1/memories/${encodeURIComponent(props.id)}/history/`),
    [props.id, props.version],
  );
  if (history.data === undefined) return <Pending loaded={history} what="The history" />;
  return (
    <ol class="history" aria-label="History">
      {history.data.map((row) => (
        <li key={row.id}>
          <span class="tag">{row.event}</span>{" "}
          <time dateTime={row.created_at}>{formatTime(row.created_at)}</time>
          {row.actor !== undefined && <span class="muted"> by {row.actor}</span>}
          {row.changed !== undefined && row.changed.length > 0 && (
            <span class="muted"> · changed {row.changed.join(", ")}</span>
          )}
          {/* An update that kept the text (a pin, a new expiry) shows no text change. */}
          {row.event === "UPDATE" && row.old_memory === row.new_memory ? null : (
            <div class="change">
              {row.old_memory !== null && (
                <del>
                  <span class="visually-hidden">Before: </span>
                  {row.old_memory}
                </del>
              )}
              {row.old_memory !== null && row.new_memory !== null && <span aria-hidden="true"> → </span>}
              {row.new_memory !== null && (
                <ins>
                  <span class="visually-hidden">After: </span>
                  {row.new_memory}
                </ins>
              )}
            </div>
          )}
        </li>
      ))}
    </ol>
  );
}
