/**
 * Bound parameters for one statement: `add` keeps a value and returns its placeholder (`$3`), so
 * fragments compiled separately (a filter, the visibility rule, a limit) number theirs in one
 * sequence. Nothing a caller passes is ever written into the SQL text.
 *
 * @module
 */

export class Params {
  readonly values: unknown[] = [];

  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
