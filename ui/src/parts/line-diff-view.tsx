/**
 * A text's line diff shown as people read a patch: `+` before an added line, `-` before a removed
 * one (marked as insertions and deletions, not by colour alone), with the totals above.
 *
 * @module
 */

import { lineDiff } from "../line-diff.js";

const SIGNS = { same: " ", added: "+", removed: "-" } as const;

export function LineDiffView(props: {
  readonly before: string;
  readonly after: string;
  readonly label: string;
}) {
  const lines = lineDiff(props.before, props.after);
  const added = lines.filter((line) => line.kind === "added").length;
  const removed = lines.filter((line) => line.kind === "removed").length;
  return (
    <figure class="diff">
      <figcaption>
        {props.label}:{" "}
        {added + removed === 0
          ? "no change"
          : `${added} ${added === 1 ? "line" : "lines"} added, ${removed} removed`}
      </figcaption>
      <pre>
        {lines.map((line, index) => {
          const text = `${SIGNS[line.kind]} ${line.text}\n`;
          if (line.kind === "added")
            return (
              <ins key={index} class="line added">
                {text}
              </ins>
            );
          if (line.kind === "removed")
            return (
              <del key={index} class="line removed">
                {text}
              </del>
            );
          return (
            <span key={index} class="line same">
              {text}
            </span>
          );
        })}
      </pre>
    </figure>
  );
}
