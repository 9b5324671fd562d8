/**
 * The part of OpenCode's plugin API (`@opencode-ai/plugin` and `@opencode-ai/sdk` 1.18) this
 * plugin uses, declared here: a plugin cannot import those packages at run time (OpenCode does not
 * install them where a local plugin file could find them), and the types are all it needs.
 *
 * @module
 */

import type { ToolDefinition } from "./tools.js";
import type { Part, SessionMessage } from "./turns.js";

type LogLevel = "debug" | "info" | "warn" | "error";

/** The in-process HTTP client OpenCode hands every plugin. */
export interface OpencodeClient {
  readonly app: {
    log(options: { body: { service: string; level: LogLevel; message: string } }): Promise<unknown>;
  };
  readonly session: {
    get(options: { path: { id: string } }): Promise<{ data?: { parentID?: string } | undefined }>;
    messages(options: { path: { id: string } }): Promise<{ data?: SessionMessage[] | undefined }>;
  };
}

export interface PluginInput {
  readonly client: OpencodeClient;
  /** The directory OpenCode runs in: the project. */
  readonly directory: string;
  /** The git worktree's root (`/` outside a repository). */
  readonly worktree: string;
}

export interface HostEvent {
  readonly type: string;
  readonly properties?: Record<string, unknown>;
}

export interface Hooks {
  tool?: Record<string, ToolDefinition>;
  event?(input: { event: HostEvent }): Promise<void>;
  "chat.message"?(
    input: { sessionID: string; messageID?: string },
    output: { message: { id: string }; parts: Part[] },
  ): Promise<void>;
  /**
   * The messages of a model call, before they are sent (OpenCode 1.18 passes no session: each
   * message's `info` names its own). Changes reach that call only; nothing is saved.
   */
  "experimental.chat.messages.transform"?(
    input: Record<string, never>,
    output: { messages: TransformMessage[] },
  ): Promise<void>;
  dispose?(): Promise<void>;
}

/** A message as `experimental.chat.messages.transform` hands it over: its info and its parts. */
export interface TransformMessage {
  readonly info: { readonly id: string; readonly role: string; readonly sessionID?: string };
  parts: TransformPart[];
}

/** A text part a plugin may add to a message (`synthetic`: written by a tool, not typed by the user). */
export interface TransformPart {
  readonly type: string;
  readonly text?: string;
  readonly id?: string;
  readonly sessionID?: string;
  readonly messageID?: string;
  readonly synthetic?: boolean;
}

export type Plugin = (input: PluginInput, options?: Record<string, unknown>) => Promise<Hooks>;
