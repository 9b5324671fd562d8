/**
 * Memories' texts next to each other (stacked on a narrow screen), each under its label — how a
 * person compares the members of a merge or the two sides of a conflict.
 *
 * @module
 */

import type { Memory } from "../wire.js";

interface SideText {
  readonly label: string;
  readonly id: string;
  /** Extra words after the label: "suggested", "kept". */
  readonly note?: string;
}

export function TextsSideBySide(props: {
  readonly sides: readonly SideText[];
  readonly memories: Readonly<Record<string, Memory>>;
}) {
  return (
    <div class="side-by-side">
      {props.sides.map((side) => (
        <figure class="side" key={side.id} aria-label={side.label}>
          <figcaption>
            <strong>{side.label}</strong>
            {side.note !== undefined && <span class="tag">{side.note}</span>}
          </figcaption>
          <blockquote>
            {props.memories[side.id]?.memory ?? <em>(memory {side.id} is not in the plan)</em>}
          </blockquote>
          <code class="id">{side.id}</code>
        </figure>
      ))}
    </div>
  );
}
