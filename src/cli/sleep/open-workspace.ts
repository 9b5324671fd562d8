/**
 * The workspace a `lucid` command works on, from `--workspace`, the config's `sleep.workspace` or
 * OpenClaw's default, opened on the command's store with the call's scope and zone.
 *
 * @module
 */

import { workspaceDir } from "../../edge/workspace-dir.js";
import { LucidError } from "../../errors.js";
import type { Workspace } from "../../sdk/workspace.js";
import { isTimeZone } from "../../text/expiry-date.js";
import type { CommandContext, FlagsDef } from "../command.js";
import { UsageError } from "../usage-error.js";

/** The directory, or undefined when nothing names one (for `search`, where a workspace is optional). */
export async function chosenWorkspaceDir(
  context: Pick<CommandContext<FlagsDef>, "config" | "io">,
  given: string | undefined,
): Promise<string | undefined> {
  const loaded = await context.config();
  const configured = loaded.config.sleep?.workspace;
  return workspaceDir({
    given,
    configured: configured === undefined ? undefined : { dir: configured, file: loaded.file },
    cwd: context.io.cwd,
    ...(context.io.env.HOME === undefined ? {} : { home: context.io.env.HOME }),
  });
}

export async function openWorkspace(
  context: Pick<CommandContext<FlagsDef>, "config" | "io" | "memory" | "scope">,
  flags: { workspace?: string | undefined; tz?: string | undefined },
  command: string,
): Promise<Workspace> {
  const dir = await chosenWorkspaceDir(context, flags.workspace);
  if (dir === undefined) {
    throw new LucidError(
      "WORKSPACE_NOT_FOUND",
      "No workspace: pass --workspace DIR (a folder with MEMORY.md and memory/), or set sleep.workspace in lucid.config.json.",
    );
  }
  if (flags.tz !== undefined && !isTimeZone(flags.tz)) {
    throw new UsageError(
      `--tz must be an IANA time zone such as Europe/Paris, got ${JSON.stringify(flags.tz)}.`,
      command,
    );
  }
  const memory = await context.memory();
  const scope = await context.scope();
  const settings = (await context.config()).config.sleep;
  return memory.workspace(dir, {
    ...scope,
    ...(flags.tz === undefined ? {} : { timeZone: flags.tz }),
    ...(settings === undefined ? {} : { settings }),
  });
}
