/**
 * What a tool is: a name, a description written for models, a zod input shape, and a `run` that
 * returns a short readable text plus structured data. Tools throw `LucidError`s; `server.ts` turns
 * every failure into a tool error, in one place.
 *
 * @module
 */

import type { ToolAnnotations } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import type { Scope } from "../core/scope.js";
import type { CallScope } from "../edge/call-scope.js";
import type { EventRegistry } from "../edge/events.js";
import type { Memory } from "../sdk/memory.js";
import type { SleepSettingsInput } from "../sleep/sleep-config.js";
import type { AutoDreamStart } from "./auto-dream.js";

export interface ToolReply {
  /** What the model reads: short, one fact a line. */
  readonly text: string;
  /** The same as data (`structuredContent`). */
  readonly data: Record<string, unknown>;
}

/** What a tool may use while it runs. */
export interface ToolCall {
  readonly memory: Memory;
  readonly events: EventRegistry;
  /**
   * The server's Markdown workspace (absolute path), when it has one and this session may use it:
   * a session bound to a scope that does not hold the workspace's searches as if there were none.
   */
  readonly workspace?: string;
  /**
   * SCOPE_NOT_ALLOWED when the server has a workspace this session may not use (not saying where it
   * is): for the tools that act on the workspace alone (a note by path, sleep's log).
   */
  checkWorkspaceAccess(): void;
  /** The config's `sleep` settings for that workspace. */
  readonly sleepSettings?: SleepSettingsInput;
  /**
   * The scope of this call (defaults overridden by the parameters). Each tool calls it once; the
   * session of the call is counted for that scope.
   */
  scope(params: Scope): CallScope;
  /**
   * What a reply may carry of stored values: every detected credential masked (`[MASKED:<kind>]`).
   * Every tool that returns memories or plans passes them through here.
   */
  shown<T>(value: T): Promise<T>;
  /** Starts the scope's auto-dream in the background when its gate passes (after a counted session). */
  dreamIfDue(scope: CallScope): Promise<AutoDreamStart>;
}

export interface ToolDef<Shape extends z.ZodRawShape> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: Shape;
  readonly annotations: ToolAnnotations;
  run(args: z.output<z.ZodObject<Shape>>, call: ToolCall): Promise<ToolReply>;
}

/** A tool with its argument type erased, for the tool table. */
export interface Tool {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly input: z.ZodRawShape;
  readonly annotations: ToolAnnotations;
  run(args: Record<string, unknown>, call: ToolCall): Promise<ToolReply>;
}

/**
 * @example
 * export const memoryGetTool = defineTool({ name: "memory_get", input: { memory_id: z.string() }, … });
 */
export function defineTool<Shape extends z.ZodRawShape>(definition: ToolDef<Shape>): Tool {
  return definition as unknown as Tool;
}
