/**
 * Errors as output: `error[CODE]: message` and a hint on stderr, or `{"ok": false, "error": {…}}`
 * on stdout with `--json`. Only `main.ts` calls this, from its one catch.
 *
 * @module
 */

import type { ErrorReport } from "../../edge/error-report.js";
import { cliMessage } from "./cli-words.js";
import { hintFor } from "./hints.js";
import type { Style } from "./style.js";

export function renderErrorJson(
  report: Pick<ErrorReport, "code" | "message" | "details">,
  command?: string,
): string {
  return `${JSON.stringify({ ok: false, error: { code: report.code, message: cliMessage(report, command) } }, null, 2)}\n`;
}

/** `error[CODE]: message`, the hint (or the usage lines given), then the stack with `--debug`. */
export function renderErrorText(
  report: Pick<ErrorReport, "code" | "message" | "details">,
  options: {
    style: Style;
    usage?: string | undefined;
    stack?: string | undefined;
    command?: string | undefined;
  },
): string {
  const { style } = options;
  const lines = [`${style.red(style.bold(`error[${report.code}]`))}: ${cliMessage(report, options.command)}`];
  const hint = hintFor(report.code);
  if (options.usage !== undefined) lines.push(options.usage);
  else if (hint !== undefined) lines.push(`${style.dim("hint:")} ${hint}`);
  if (options.stack !== undefined) lines.push(style.dim(options.stack));
  return `${lines.join("\n")}\n`;
}

/** The stack of an error and of its causes, for `--debug`. */
export function stackOf(error: unknown): string | undefined {
  const parts: string[] = [];
  let current: unknown = error;
  for (let depth = 0; current instanceof Error && depth < 5; depth++) {
    parts.push(
      depth === 0 ? (current.stack ?? current.message) : `caused by: ${current.stack ?? current.message}`,
    );
    current = current.cause;
  }
  return parts.length === 0 ? undefined : parts.join("\n");
}
