/**
 * The shape of a noise rule: a pure test of a memory's text (and metadata) that names what kind
 * of noise it is, or nothing.
 *
 * @module
 */

export interface NoiseMatch {
  /** The rule's name, e.g. `acknowledgement`, `stack_trace`; becomes `why.rule`. */
  readonly rule: string;
  /** One line for the report: what was recognised. */
  readonly detail: string;
}

export type NoiseRule = (text: string, metadata: Readonly<Record<string, unknown>>) => NoiseMatch | undefined;

/** Non-empty lines, trimmed at the end. */
export function linesOf(text: string): string[] {
  return text
    .split(/\r?\n/u)
    .map((line) => line.trimEnd())
    .filter((line) => line.trim() !== "");
}

export function wordCount(text: string): number {
  return text.split(/\s+/u).filter((word) => /[\p{L}\p{N}]/u.test(word)).length;
}
