/**
 * The library's messages in the command line's words. A `LucidError` says how to fix a call in the
 * SDK's terms (`getAll`, `{ userId: "alice" }`); on the command line the same failure is told with
 * commands and flags. Only codes whose message names SDK calls are retold, from the error's details.
 *
 * @module
 */

import type { ErrorReport } from "../../edge/error-report.js";

/**
 * `command` is the command that ran: the library names its own verb (`lucid forget` searches, so
 * its verb is `search`), the command line names what the user typed.
 *
 * @example
 * cliMessage({ code: "SCOPE_REQUIRED", message: "getAll needs a scope: …", details: { verb: "getAll" } }, "list");
 * // => "`lucid list` needs a scope."
 */
export function cliMessage(
  report: Pick<ErrorReport, "code" | "message" | "details">,
  command?: string,
): string {
  const details = report.details ?? {};
  if (report.code === "SCOPE_REQUIRED") {
    // The hint under it says how to give one.
    return `${command === undefined ? "This command" : `\`lucid ${command}\``} needs a scope.`;
  }
  if (report.code === "MEMORY_NOT_FOUND" && typeof details.id === "string") {
    return `No memory has the id ${JSON.stringify(details.id)}.`;
  }
  if (report.code === "UNDO_CONFLICT") {
    // The library says force would do it; on the command line, force is a flag.
    return `${report.message} Add --force to do so.`;
  }
  return report.message;
}
