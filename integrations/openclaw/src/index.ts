/**
 * Lucid as OpenClaw's memory (the exclusive `memory` slot): the eight memory tools, recall before
 * every prompt (`before_prompt_build` → `prependContext`), capture and session counting after
 * every turn (`agent_end`), consolidation run by Lucid's own engine when the gate passes (in the
 * Lucid process, in the background: no protocol prompt, no turn spent on it), and `openclaw lucid …`.
 *
 * Everything goes through one Lucid process per host process (`shared/lucid-process.ts`).
 *
 * @module
 */

import { existsSync } from "node:fs";
import { type LucidProcess, startLucid } from "../../shared/lucid-process.js";
import { recallArgs } from "../../shared/plugin-settings.js";
import { registerLucidCli } from "./cli.js";
import { type PluginConfig, readConfig } from "./config.js";
import {
  cleanPrompt,
  type HookContext,
  isBackground,
  isSubagent,
  lastTurn,
  scopeOf,
  triggerOf,
} from "./sessions.js";
import { createTools, MEMORY_TOOL_NAMES, type PluginTool } from "./tools.js";

interface Logger {
  info?(message: string): void;
  warn?(message: string): void;
  error?(message: string): void;
}

/** The part of OpenClaw's plugin API this plugin uses (`openclaw/plugin-sdk`, 2026.9). */
export interface PluginApi {
  readonly pluginConfig?: unknown;
  readonly registrationMode?: string;
  readonly logger?: Logger;
  registerTool(tool: PluginTool | ((context: HookContext) => PluginTool), options?: { name?: string }): void;
  on(
    hook: string,
    handler: (event: Record<string, unknown>, context: HookContext) => unknown,
    options?: Record<string, unknown>,
  ): void;
  registerCli?(register: (input: { program: unknown }) => void, options?: { commands?: string[] }): void;
}

const SUBAGENT_NOTE =
  "You are a subagent — use these memories for context but do not assume you are this user. Do NOT store new memories.\n\n";

// OpenClaw gives before_prompt_build 15 s; a recall slower than this goes without memories.
const RECALL_TIMEOUT_MS = 12_000;

// One Lucid per host process and settings: `register` runs several times per process.
const processes = new Map<string, LucidProcess>();

/** How to start Lucid for these settings (and the workspace whose notes join recall). */
function lucidOptions(config: PluginConfig, workspace: string | undefined, log: Logger | undefined) {
  return {
    command: config.command,
    args: [
      ...(config.home === undefined ? [] : ["--home", config.home]),
      "--user",
      config.userId,
      ...(workspace === undefined ? [] : ["--workspace", workspace]),
    ],
    env: { ...process.env, ...(config.autoDream ? {} : { LUCID_DREAM: "off" }) },
    log: (line: string) => log?.info?.(`lucid: ${line}`),
  };
}

/** The host process's Lucid for these settings, started on first use and shared. */
function lucidFor(
  config: PluginConfig,
  workspace: string | undefined,
  log: Logger | undefined,
): LucidProcess {
  const options = lucidOptions(config, workspace, log);
  const key = JSON.stringify([options.command, options.args, config.autoDream]);
  let lucid = processes.get(key);
  if (lucid === undefined) {
    lucid = startLucid(options);
    processes.set(key, lucid);
  }
  return lucid;
}

const plugin = {
  id: "lucid",
  name: "Lucid memory",
  description: "Local-first long-term memory: recall, capture and consolidation by Lucid.",
  register(api: PluginApi): void {
    const config = readConfig(api.pluginConfig);
    const log = api.logger;
    // The workspace the host runs in (its notes join recall); known once a hook or tool sees it.
    let workspace: string | undefined;
    const lucid = () => lucidFor(config, config.notes ? workspace : undefined, log);
    const learn = (context: HookContext) => {
      if (workspace === undefined && context.workspaceDir !== undefined && existsSync(context.workspaceDir)) {
        workspace = context.workspaceDir;
      }
    };

    // A CLI command gets a Lucid of its own, closed when the command is done.
    registerLucidCli(api, () => startLucid(lucidOptions(config, undefined, log)), config);
    if (api.registrationMode === "cli-metadata") return;

    for (const name of MEMORY_TOOL_NAMES) {
      api.registerTool(
        (context: HookContext) => {
          learn(context ?? {});
          return createTools(lucid, config, context ?? {}).find((tool) => tool.name === name) as PluginTool;
        },
        { name },
      );
    }

    api.on("before_prompt_build", async (event, context) => {
      const prompt = typeof event.prompt === "string" ? event.prompt : "";
      if (!config.autoRecall || prompt.length < 5 || isBackground(context)) return undefined;
      learn(context);
      try {
        const { text, data } = await lucid().call<{ memories?: unknown[]; notes?: unknown[] }>(
          "memory_recall",
          {
            query: cleanPrompt(prompt),
            ...recallArgs(config.recall),
            ...scopeOf(config.userId, context),
          },
          { timeoutMs: RECALL_TIMEOUT_MS },
        );
        // Nothing recalled adds nothing to the prompt.
        if ((data.memories?.length ?? 0) === 0 && (data.notes?.length ?? 0) === 0) return undefined;
        return { prependContext: isSubagent(context) ? `${SUBAGENT_NOTE}${text}` : text };
      } catch (error) {
        log?.warn?.(`lucid: recall failed, the turn goes on without memories: ${String(error)}`);
        return undefined;
      }
    });

    api.on("agent_end", async (event, context) => {
      if (event.success === false || isBackground(context)) return;
      learn(context);
      const scope = scopeOf(config.userId, context);
      const trigger = triggerOf(context);
      const session = context.sessionId === undefined ? {} : { session_id: context.sessionId, trigger };
      try {
        const messages = Array.isArray(event.messages) ? lastTurn(event.messages) : [];
        const answer =
          config.autoCapture && !isSubagent(context) && messages.length > 0
            ? await lucid().call("memory_capture", { messages, ...session, ...scope })
            : context.sessionId === undefined
              ? undefined
              : await lucid().call("memory_session", { session_id: context.sessionId, trigger, ...scope });
        if (answer !== undefined) log?.info?.(`lucid: ${answer.text.split("\n").join(" | ")}`);
      } catch (error) {
        log?.warn?.(`lucid: capture failed: ${String(error)}`);
      }
    });
  },
};

export default plugin;
