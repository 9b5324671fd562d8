/**
 * The tools the model gets: `lucid_search`, `lucid_add`, `lucid_list`, `lucid_get`,
 * `lucid_update` and `lucid_delete`, each one call to Lucid's MCP tool of the same verb, answering
 * with the text Lucid wrote for a model. A failure is answered as text too, so the turn goes on.
 *
 * Arguments are zod schemas, bundled: OpenCode 1.18 builds a tool's JSON Schema with its own zod
 * from any value carrying `_zod`, and otherwise takes plain JSON Schema per argument but marks
 * every argument required, which optional ones cannot live with.
 *
 * @module
 */

import { z } from "zod";
import type { LucidProcess } from "../../shared/lucid-process.js";

/** What a tool's `execute` receives besides its arguments (the part used here). */
export interface ToolContext {
  readonly sessionID: string;
}

/** OpenCode's `ToolDefinition`, as `@opencode-ai/plugin` declares it. */
export interface ToolDefinition {
  description: string;
  args: Record<string, z.ZodType>;
  execute(args: Record<string, unknown>, context: ToolContext): Promise<string>;
}

export interface ToolsInput {
  readonly lucid: () => LucidProcess;
  /** Only the user's sessions change memories: a subagent's reads them (Mem0's isolation rule). */
  readonly mayWrite: (sessionID: string) => Promise<boolean>;
}

const memoryId = z.string().min(1).describe("The memory's id, as lucid_search or lucid_list shows it.");

export function createTools({ lucid, mayWrite }: ToolsInput): Record<string, ToolDefinition> {
  const call = async (tool: string, args: Record<string, unknown>): Promise<string> => {
    try {
      return (await lucid().call(tool, args)).text;
    } catch (error) {
      return `Lucid ${tool} failed: ${error instanceof Error ? error.message : String(error)}`;
    }
  };
  const writing = async (
    tool: string,
    args: Record<string, unknown>,
    context: ToolContext,
  ): Promise<string> =>
    (await mayWrite(context.sessionID))
      ? call(tool, args)
      : "Memories cannot be changed from a subagent session; tell the main agent instead.";

  return {
    lucid_search: {
      description:
        "Search long-term memory (Lucid) for the user's preferences, past decisions, people, projects and rules. " +
        "Use it before answering anything that may depend on what you were told in earlier sessions.",
      args: {
        query: z.string().min(1).describe("What to look for, in a few keywords or a short question."),
        limit: z.number().int().min(1).max(100).optional().describe("How many results at most (default 10)."),
      },
      execute: (args) => call("memory_search", pick(args, ["query", "limit"])),
    },
    lucid_add: {
      description:
        "Remember durable facts: preferences, decisions, rules, people, projects. Write each as one short, " +
        "self-contained sentence. Do not store secrets or passing chatter.",
      args: {
        text: z.string().min(1).optional().describe("One fact to remember."),
        facts: z.array(z.string().min(1)).optional().describe("Several facts, one memory each."),
        category: z
          .string()
          .min(1)
          .optional()
          .describe("identity, preference, decision, rule, project, configuration, technical, relationship"),
      },
      execute: (args, context) => {
        const facts = Array.isArray(args.facts) ? args.facts : [];
        if (args.text === undefined && facts.length === 0) {
          return Promise.resolve("Nothing to remember: pass text or facts.");
        }
        return writing("memory_add", pick(args, ["text", "facts", "category"]), context);
      },
    },
    lucid_list: {
      description: "List the stored memories, newest first, a page at a time.",
      args: {
        page: z.number().int().min(1).optional().describe("1-based page (default 1)."),
        page_size: z.number().int().min(1).max(500).optional().describe("Memories per page (default 50)."),
      },
      execute: (args) => call("memory_list", pick(args, ["page", "page_size"])),
    },
    lucid_get: {
      description: "Read one memory in full by its id.",
      args: { memory_id: memoryId },
      execute: (args) => call("memory_get", pick(args, ["memory_id"])),
    },
    lucid_update: {
      description: "Correct a memory in place; its old text stays in its history.",
      args: {
        memory_id: memoryId,
        text: z.string().min(1).describe("The corrected fact, as one self-contained sentence."),
      },
      execute: (args, context) => writing("memory_update", pick(args, ["memory_id", "text"]), context),
    },
    lucid_delete: {
      description:
        "Forget a memory: by memory_id, or by query (deleted only when one memory clearly matches; " +
        "otherwise the candidates come back with their ids).",
      args: {
        memory_id: memoryId.optional(),
        query: z.string().min(1).optional().describe("Describe the memory to forget."),
      },
      execute: (args, context) => {
        if (args.memory_id === undefined && args.query === undefined) {
          return Promise.resolve("Nothing to forget: pass memory_id or query.");
        }
        return writing("memory_delete", pick(args, ["memory_id", "query"]), context);
      },
    },
  };
}

/** The named arguments the model gave, and no others. */
function pick(args: Record<string, unknown>, keys: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(keys.filter((key) => args[key] !== undefined).map((key) => [key, args[key]]));
}
