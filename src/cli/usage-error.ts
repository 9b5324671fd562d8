import { LucidError } from "../errors.js";

/**
 * A mistake in the command line itself (unknown command or flag, missing argument, bad flag
 * value): the `USAGE` code, exit code 2 and the command's usage, as opposed to a failure of the
 * library.
 */
export class UsageError extends LucidError {
  /** `command`: the command whose usage to show, when known. */
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super("USAGE", message, command === undefined ? {} : { details: { command } });
    this.name = "UsageError";
  }
}
