/**
 * What stands where a view's data will be: "Loading …" while it is read, and, when the read failed,
 * a line that says so (the alert above says why) — never a "Loading" that waits forever.
 *
 * @module
 */

import type { Loaded } from "../tasks.js";

export function Pending(props: { readonly loaded: Loaded<unknown>; readonly what: string }) {
  if (props.loaded.failed) {
    return <p class="hint">{props.what} could not be loaded: the message above says why.</p>;
  }
  return <p aria-busy="true">Loading {props.what}…</p>;
}
