/**
 * A conflict's decision: keep A (deletes B), keep B (deletes A), or skip (both stay). Skip is the
 * default: nothing is deleted unless a person picks a side.
 *
 * @module
 */

import type { ConflictChoice } from "../wire.js";

const CHOICES: readonly [ConflictChoice, string][] = [
  ["A", "Keep A"],
  ["B", "Keep B"],
  ["skip", "Skip"],
];

export function ConflictChoiceGroup(props: {
  readonly name: string;
  readonly label: string;
  readonly value: ConflictChoice;
  onChange(choice: ConflictChoice): void;
}) {
  return (
    <div class="choices" role="radiogroup" aria-label={props.label}>
      {CHOICES.map(([choice, text]) => (
        <label key={choice} class="choice">
          <input
            type="radio"
            name={props.name}
            value={choice}
            checked={props.value === choice}
            onChange={() => props.onChange(choice)}
          />
          {text}
        </label>
      ))}
    </div>
  );
}
