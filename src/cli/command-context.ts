/**
 * The context a command runs in: its parsed flags, the setup (config, the one policy) and the
 * store, both loaded on first use (so `lucid help` never touches the disk, and a command that
 * needs no store never loads the SDK), and the scope resolution shared by every command.
 *
 * @module
 */

import { DEFAULT_SCOPE_KEYS } from "../config/default-scope.js";
import { locateHome } from "../config/home.js";
import type { Setup } from "../config/load-config.js";
import { SCOPE_KEY_OF_OPTION, type ScopeOptions } from "../core/scope.js";
import { createOutputMask, type OutputMask } from "../edge/output-mask.js";
import type { Memory } from "../sdk/memory.js";
import type { GlobalFlags } from "./args/global-flags.js";
import type { CommandContext, FlagsDef } from "./command.js";
import type { CliIo } from "./io.js";
import type { Style } from "./output/style.js";
import { UsageError } from "./usage-error.js";

const SCOPE_FLAG_OF: Readonly<Record<keyof ScopeOptions, string>> = {
  userId: "user",
  agentId: "agent",
  appId: "app",
  runId: "run",
};

export interface ContextInput {
  /** The command's name, for the usage line of an error. */
  command?: string;
  io: CliIo;
  globals: GlobalFlags;
  flags: Record<string, string | boolean | undefined>;
  args: string[];
  style: Style;
  errorStyle: Style;
}

/**
 * A command context, `close()` for the store it may have opened, and how many credentials its
 * output masked (for the notice that `--reveal` shows them).
 */
export function createCommandContext(input: ContextInput): {
  context: CommandContext<FlagsDef>;
  close: () => Promise<void>;
  masked: () => number;
} {
  const { io, globals, flags } = input;
  let setup: Promise<Setup> | undefined;
  let opened: Promise<Memory> | undefined;
  let mask: Promise<OutputMask> | undefined;
  let made: OutputMask | undefined;
  const resolved = () => {
    // The commands that take --project / --policy (dream) name the policy's files; the others read
    // the retention files of the directory they run in, so every command sees the same policy.
    // Loaded when first needed: `--version`, `--help` and usage errors never read a file.
    setup ??= import("../config/load-config.js").then(({ resolveSetup }) =>
      resolveSetup({
        home: globals.home,
        env: io.env,
        projectDir: typeof flags.project === "string" ? flags.project : io.cwd,
        policyFile: typeof flags.policy === "string" ? flags.policy : undefined,
      }),
    );
    return setup;
  };
  const context: CommandContext<FlagsDef> = {
    args: input.args,
    flags: flags as CommandContext<FlagsDef>["flags"],
    json: globals.json,
    io,
    style: input.style,
    errorStyle: input.errorStyle,
    paths: locateHome({ flag: globals.home, env: io.env }),
    setup: resolved,
    async config() {
      return (await resolved()).loaded;
    },
    memory(extra) {
      opened ??= Promise.all([resolved(), import("../sdk/open-memory.js")]).then(([{ memoryOptions }, sdk]) =>
        sdk.openMemory({ ...memoryOptions, ...extra }),
      );
      return opened;
    },
    async shown(value) {
      mask ??= globals.reveal
        ? Promise.resolve(createOutputMask(null))
        : Promise.all([resolved(), import("../core/secrets-guard.js")]).then(([{ policy }, guards]) =>
            createOutputMask(guards.secretsGuardOf({ policy }).scanner),
          );
      made = await mask;
      return made.shown(value);
    },
    async scope(options = {}) {
      const scope: ScopeOptions = {};
      const given = { userId: flags.user, agentId: flags.agent, appId: flags.app, runId: flags.run };
      for (const [key, value] of Object.entries(given)) {
        if (typeof value !== "string") continue;
        // A blank id names no scope (and would widen a search to "every memory without this key").
        const flag = SCOPE_FLAG_OF[key as keyof ScopeOptions];
        if (value.trim() === "") {
          throw new UsageError(
            `--${flag} needs an id, got ${JSON.stringify(value)}; leave the flag out for no ${flag} scope.`,
            input.command,
          );
        }
        // An id is one word: "alice smith" is two, whatever the library would say about it.
        if (/\s/u.test(value.trim())) {
          throw new UsageError(
            `--${flag} needs an id without spaces, got ${JSON.stringify(value)}.`,
            input.command,
          );
        }
        scope[key as keyof ScopeOptions] = value;
      }
      if (options.defaults === false) return scope;
      const { defaultScope } = await resolved();
      for (const key of DEFAULT_SCOPE_KEYS) {
        const fallback = defaultScope[key];
        // A key the filters name is the caller's choice; a default must not AND a second value onto it.
        if (
          scope[key] !== undefined ||
          fallback === undefined ||
          options.filters?.[SCOPE_KEY_OF_OPTION[key]] !== undefined
        )
          continue;
        scope[key] = fallback;
      }
      return scope;
    },
  };
  const close = async () => {
    if (opened === undefined) return;
    const memory = await opened.catch(() => undefined);
    await memory?.close().catch(() => undefined);
  };
  return { context, close, masked: () => made?.masked ?? 0 };
}
