/**
 * What a dream apply did, as counts (`ApplyCounts`): the same list after an apply and in a run's
 * details.
 *
 * @module
 */

import type { ApplyCounts } from "../wire.js";

const LABELS: readonly [keyof ApplyCounts, string][] = [
  ["merged", "Merged"],
  ["pruned", "Pruned"],
  ["conflictsResolved", "Conflicts resolved"],
  ["conflictsSkipped", "Conflicts skipped"],
  ["rewritten", "Rewritten"],
  ["skipped", "Skipped"],
  ["stale", "Stale (changed since the plan)"],
  ["finalCount", "Memories now"],
];

export function ApplyCountsList(props: { readonly counts: ApplyCounts; readonly label: string }) {
  return (
    <dl class="counts" aria-label={props.label}>
      {LABELS.map(([field, label]) => (
        <div key={field}>
          <dt>{label}</dt>
          <dd>{props.counts[field]}</dd>
        </div>
      ))}
    </dl>
  );
}

/** `2 merged, 1 pruned`: the non-zero counts but the final one, for a table cell. */
export function countsLine(counts: ApplyCounts): string {
  const parts = LABELS.filter(([field]) => field !== "finalCount" && counts[field] > 0).map(
    ([field, label]) => `${counts[field]} ${label.toLowerCase().replace(/ \(.*\)$/, "")}`,
  );
  return parts.length === 0 ? "no changes" : parts.join(", ");
}
