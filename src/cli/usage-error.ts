/**
 * A mistake in the command line itself (unknown command or flag, missing argument, bad flag
 * value): exit code 2 and the command's usage, as opposed to a `LucidError` from the library.
 */
export class UsageError extends Error {
  readonly code = "USAGE";

  /** `command`: the command whose usage to show, when known. */
  constructor(
    message: string,
    readonly command?: string,
  ) {
    super(message);
    this.name = "UsageError";
  }
}
