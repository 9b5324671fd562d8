/**
 * The CLI's entry: parse the command line, run one command, print its result, and turn any error
 * into output and an exit code — in the one catch of the CLI (0 success, 1 failure, 2 usage).
 *
 * @module
 */

import { exitCodeOf, reportError } from "../edge/error-report.js";
import { parseCommandLine, splitCommand } from "./args/parse-command-line.js";
import type { CommandOutput } from "./command.js";
import { createCommandContext } from "./command-context.js";
import { COMMANDS, findCommand } from "./commands/index.js";
import { renderCommandHelp, renderGeneralHelp, renderUsageHint } from "./help/render-help.js";
import { type CliIo, type OutputStream, processIo } from "./io.js";
import { renderErrorJson, renderErrorText, stackOf } from "./output/render-error.js";
import { colorEnabled, createStyle, type Style } from "./output/style.js";
import { UsageError } from "./usage-error.js";
import { lucidVersion } from "./version.js";

/**
 * Runs `lucid` with these arguments (without `node` and the script) and returns the exit code.
 *
 * @example
 * process.exitCode = await runMain(process.argv.slice(2));
 */
export async function runMain(argv: readonly string[], io: CliIo = processIo()): Promise<number> {
  // Read before parsing, so that a usage error is still reported in the form asked for.
  const flags = {
    json: argv.includes("--json"),
    debug: argv.includes("--debug"),
    color: argv.includes("--no-color") ? false : argv.includes("--color") ? true : undefined,
  };
  const styleFor = (stream: OutputStream) =>
    createStyle(colorEnabled({ flag: flags.color, env: io.env, isTTY: stream.isTTY }));
  let close = async () => {};
  let ran: string | undefined;
  try {
    const { name, rest } = splitCommand(argv);
    ran = name;
    const command = name === undefined || name === "help" ? undefined : findCommand(name);
    const parsed = parseCommandLine(rest, command);
    Object.assign(flags, parsed.globals);
    const style = styleFor(io.stdout);
    const print = (text: string, data: Record<string, unknown>) =>
      io.stdout.write(flags.json ? renderJson({ ok: true, ...data }) : `${text}\n`);

    if (parsed.globals.version) {
      const version = lucidVersion();
      print(version, { version });
      return 0;
    }
    if (name === "help" || parsed.globals.help || command === undefined) {
      if (name === undefined && flags.json) throw new UsageError("no command given.");
      const help = renderHelp(name === "help" ? parsed.args[0] : command?.name, style);
      print(help, { help });
      return 0;
    }

    const session = createCommandContext({
      ...parsed,
      command: command.name,
      io,
      style,
      errorStyle: styleFor(io.stderr),
    });
    close = session.close;
    const output = await command.run(session.context);
    writeOutput(output, { io, json: flags.json, errorStyle: styleFor(io.stderr) });
    const masked = session.masked();
    if (masked > 0) {
      const what = masked === 1 ? "1 credential" : `${masked} credentials`;
      io.stderr.write(
        `${styleFor(io.stderr).dim(`${what} in stored values masked as [MASKED:kind]; --reveal prints them.`)}
`,
      );
    }
    return output.error === undefined ? 0 : 1;
  } catch (error) {
    const report = reportError(error);
    const exitCode = exitCodeOf(report.kind);
    const stack = flags.debug ? stackOf(error) : undefined;
    if (flags.json) {
      io.stdout.write(renderErrorJson(report, ran));
      if (stack !== undefined) io.stderr.write(`${stack}\n`);
    } else {
      const style = styleFor(io.stderr);
      const command = COMMANDS.find((candidate) => candidate.name === report.details?.command);
      const usage = report.kind === "usage" ? renderUsageHint(command, style) : undefined;
      io.stderr.write(renderErrorText(report, { style, usage, stack, command: ran }));
    }
    return exitCode;
  } finally {
    await close();
  }
}

function renderHelp(topic: string | undefined, style: Style): string {
  return topic === undefined
    ? renderGeneralHelp(COMMANDS, style, lucidVersion())
    : renderCommandHelp(findCommand(topic), style);
}

/** The one JSON document of `--json`, or the human text (and, for a partial failure, the error on stderr). */
function writeOutput(output: CommandOutput, options: { io: CliIo; json: boolean; errorStyle: Style }): void {
  const { io, json, errorStyle } = options;
  if (json) {
    const failed = output.error === undefined ? {} : { error: output.error };
    io.stdout.write(renderJson({ ok: output.error === undefined, ...output.json, ...failed }));
    return;
  }
  const text = output.render();
  if (text !== "") io.stdout.write(`${text}\n`);
  if (output.error !== undefined) {
    io.stderr.write(renderErrorText(output.error, { style: errorStyle }));
  }
}

function renderJson(document: Record<string, unknown>): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}
