/**
 * The library's messages in the command line's words. A `LucidError` says how to fix a call in the
 * SDK's terms (`getAll`, `{ userId: "alice" }`); on the command line the same failure is told with
 * commands and flags. Only codes whose message names SDK calls are retold, from the error's details.
 *
 * @module
 */

import type { ErrorReport } from "../../edge/error-report.js";

/** The SDK verb a `SCOPE_REQUIRED` names, as the command a user typed. */
const COMMAND_OF: Readonly<Record<string, string>> = {
  add: "lucid add",
  search: "lucid search",
  getAll: "lucid list",
  deleteAll: "lucid delete --all",
  forget: "lucid forget",
  import: "lucid import",
  "dream.plan": "lucid dream",
};

/**
 * @example
 * cliMessage({ code: "SCOPE_REQUIRED", kind: "input", message: "getAll needs a scope: …", details: { verb: "getAll" } });
 * // => "`lucid list` needs a scope."
 */
export function cliMessage(report: Pick<ErrorReport, "code" | "message" | "details">): string {
  const details = report.details ?? {};
  if (report.code === "SCOPE_REQUIRED" && typeof details.verb === "string") {
    const command = COMMAND_OF[details.verb] ?? "This command";
    // The hint under it says how to give one.
    return `${command === "This command" ? command : `\`${command}\``} needs a scope.`;
  }
  if (report.code === "MEMORY_NOT_FOUND" && typeof details.id === "string") {
    return `No memory has the id ${JSON.stringify(details.id)}.`;
  }
  return report.message;
}
