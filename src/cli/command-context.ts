/**
 * The context a command runs in: its parsed flags, the config and the store, both loaded on first
 * use (so `lucid help` never touches the disk), and the scope resolution shared by every command.
 *
 * @module
 */

import { DEFAULT_SCOPE_KEYS } from "../config/default-scope.js";
import { locateHome } from "../config/home.js";
import { createMemoryOptions, type LoadedConfig, loadConfig } from "../config/load-config.js";
import type { Memory } from "../memory/memory.js";
import type { ScopeOptions } from "../memory/types.js";
import { openMemory } from "../open-memory.js";
import type { GlobalFlags } from "./args/global-flags.js";
import type { CommandContext, FlagsDef } from "./command.js";
import type { CliIo } from "./io.js";
import type { Style } from "./output/style.js";

const SNAKE = { userId: "user_id", agentId: "agent_id", appId: "app_id", runId: "run_id" } as const;

export interface ContextInput {
  io: CliIo;
  globals: GlobalFlags;
  flags: Record<string, string | boolean | undefined>;
  args: string[];
  style: Style;
  errorStyle: Style;
}

/** A command context, and `close()` for the store it may have opened. */
export function createCommandContext(input: ContextInput): {
  context: CommandContext<FlagsDef>;
  close: () => Promise<void>;
} {
  const { io, globals, flags } = input;
  let loaded: Promise<LoadedConfig> | undefined;
  let opened: Promise<Memory> | undefined;
  const config = () => {
    loaded ??= loadConfig({ home: globals.home, env: io.env });
    return loaded;
  };
  const context: CommandContext<FlagsDef> = {
    args: input.args,
    flags: flags as CommandContext<FlagsDef>["flags"],
    json: globals.json,
    io,
    style: input.style,
    errorStyle: input.errorStyle,
    paths: locateHome({ flag: globals.home, env: io.env }),
    config,
    memory(extra) {
      opened ??= config().then((loadedConfig) => openMemory(createMemoryOptions(loadedConfig, extra)));
      return opened;
    },
    async scope(options = {}) {
      const scope: ScopeOptions = {};
      const given = { userId: flags.user, agentId: flags.agent, appId: flags.app, runId: flags.run };
      for (const [key, value] of Object.entries(given)) {
        if (typeof value === "string") scope[key as keyof ScopeOptions] = value;
      }
      if (options.defaults === false) return scope;
      const { defaultScope } = await config();
      for (const key of DEFAULT_SCOPE_KEYS) {
        const fallback = defaultScope[key];
        // A key the filters name is the caller's choice; a default must not AND a second value onto it.
        if (scope[key] !== undefined || fallback === undefined || options.filters?.[SNAKE[key]] !== undefined)
          continue;
        scope[key] = fallback.value;
      }
      return scope;
    },
  };
  const close = async () => {
    if (opened === undefined) return;
    const memory = await opened.catch(() => undefined);
    await memory?.close().catch(() => undefined);
  };
  return { context, close };
}
