/**
 * The eight tools of Mem0's OpenClaw plugin (`specs/mem0.md` §A.7), same names and parameters, so
 * prompts and skills written for it keep working; each is a call to Lucid's own tool of that name.
 *
 * @module
 */

import type { LucidProcess } from "../../shared/lucid-process.js";
import type { PluginConfig } from "./config.js";
import { type HookContext, isSubagent, scopeOf } from "./sessions.js";

export interface ToolResult {
  content: { type: "text"; text: string }[];
  details: Record<string, unknown>;
}

export interface PluginTool {
  name: string;
  label: string;
  description: string;
  parameters: Record<string, unknown>;
  execute(toolCallId: string, params: Record<string, unknown>): Promise<ToolResult>;
}

/** Mem0's eight, in its order; the manifest's `contracts.tools` lists the same. */
export const MEMORY_TOOL_NAMES = [
  "memory_search",
  "memory_add",
  "memory_get",
  "memory_list",
  "memory_update",
  "memory_delete",
  "memory_event_list",
  "memory_event_status",
] as const;

const string = (description: string) => ({ type: "string", description });
const object = (properties: Record<string, unknown>, required: string[] = []) => ({
  type: "object",
  properties,
  required,
  additionalProperties: false,
});
const who = {
  userId: string("Whose memories (default: the configured user)."),
  agentId: string('An agent\'s memories (e.g. "researcher").'),
};

export function createTools(
  lucid: () => LucidProcess,
  config: PluginConfig,
  context: HookContext,
): PluginTool[] {
  const subagent = isSubagent(context);
  const scope = (params: Record<string, unknown>) => {
    const base = scopeOf(typeof params.userId === "string" ? params.userId : config.userId, context);
    return typeof params.agentId === "string" ? { ...base, agent_id: params.agentId } : base;
  };
  const call = async (tool: string, args: Record<string, unknown>, failure: string): Promise<ToolResult> => {
    try {
      const answer = await lucid().call(tool, args);
      return { content: [{ type: "text", text: answer.text }], details: answer.data };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { content: [{ type: "text", text: `${failure}: ${message}` }], details: { error: message } };
    }
  };
  const refused = (text: string): ToolResult => ({
    content: [{ type: "text", text }],
    details: { error: "subagent" },
  });
  const session = (params: Record<string, unknown>) =>
    params.scope === "session" && context.sessionId !== undefined ? { run_id: context.sessionId } : {};

  return [
    {
      name: "memory_search",
      label: "Memory Search",
      description:
        "Search long-term memory (Lucid) for preferences, past decisions, people and projects. Rewrite the query as 3–6 keywords.",
      parameters: object(
        {
          query: string("Search query"),
          limit: { type: "number", description: `Max results (default ${config.topK})` },
          ...who,
          scope: { type: "string", enum: ["session", "long-term", "all"], description: "Default all." },
          categories: { type: "array", items: { type: "string" } },
          filters: {
            type: "object",
            description: 'Mem0 filters, e.g. {"created_at": {"gte": "2026-03-01"}}',
          },
        },
        ["query"],
      ),
      execute: (_id, params) =>
        call(
          "memory_search",
          {
            query: params.query,
            limit: typeof params.limit === "number" ? Math.max(1, Math.round(params.limit)) : config.topK,
            ...(Array.isArray(params.categories) ? { categories: params.categories } : {}),
            ...(typeof params.filters === "object" && params.filters !== null
              ? { filters: params.filters }
              : {}),
            ...scope(params),
            ...session(params),
          },
          "Memory search failed",
        ),
    },
    {
      name: "memory_add",
      label: "Memory Add",
      description:
        "Save durable facts (preferences, decisions, rules, people, projects) as short third-person sentences. All facts of one call share a category.",
      parameters: object({
        text: string("One fact to remember."),
        facts: { type: "array", items: { type: "string" }, description: "Several facts, one memory each." },
        category: string(
          "identity, preference, decision, rule, project, configuration, technical, relationship",
        ),
        importance: { type: "number", minimum: 0, maximum: 1 },
        ...who,
        metadata: { type: "object" },
        longTerm: { type: "boolean", description: "false keeps it to this session (default true)." },
      }),
      execute: async (_id, params) => {
        if (subagent) return refused("Memory storage is not available in subagent sessions.");
        const facts =
          Array.isArray(params.facts) && params.facts.length > 0
            ? params.facts
            : params.text === undefined
              ? []
              : [params.text];
        if (facts.length === 0) return refused("No facts provided. Pass 'text' or 'facts' array.");
        return call(
          "memory_add",
          {
            facts,
            ...(typeof params.category === "string" ? { category: params.category } : {}),
            ...(typeof params.importance === "number" ? { importance: params.importance } : {}),
            ...(typeof params.metadata === "object" && params.metadata !== null
              ? { metadata: params.metadata }
              : {}),
            ...scope(params),
            ...(params.longTerm === false && context.sessionId !== undefined
              ? { run_id: context.sessionId }
              : {}),
          },
          "Memory add failed",
        );
      },
    },
    {
      name: "memory_get",
      label: "Memory Get",
      description: "Read one memory by id (or a workspace note by path#Lx-Ly).",
      parameters: object({ memoryId: string("The memory's id") }, ["memoryId"]),
      execute: (_id, params) =>
        call("memory_get", { memory_id: params.memoryId, ...scope(params) }, "Memory get failed"),
    },
    {
      name: "memory_list",
      label: "Memory List",
      description: "List stored memories, newest first.",
      parameters: object({ ...who, scope: { type: "string", enum: ["session", "long-term", "all"] } }),
      execute: (_id, params) =>
        call("memory_list", { ...scope(params), ...session(params) }, "Memory list failed"),
    },
    {
      name: "memory_update",
      label: "Memory Update",
      description: "Correct a memory in place (its old text stays in history).",
      parameters: object({ memoryId: string("The memory's id"), text: string("The corrected fact") }, [
        "memoryId",
        "text",
      ]),
      execute: async (_id, params) => {
        if (subagent) return refused("Memory update is not available in subagent sessions.");
        return call(
          "memory_update",
          { memory_id: params.memoryId, text: params.text, ...scope(params) },
          "Memory update failed",
        );
      },
    },
    {
      name: "memory_delete",
      label: "Memory Delete",
      description:
        "Delete by memoryId, by query (only when one match is clearly meant), or all with confirm: true.",
      parameters: object({
        memoryId: string("The memory's id"),
        query: string("Describe the memory to forget"),
        all: { type: "boolean" },
        confirm: { type: "boolean" },
        ...who,
      }),
      execute: async (_id, params) => {
        if (subagent) return refused("Memory deletion is not available in subagent sessions.");
        if (params.memoryId === undefined && params.query === undefined && params.all !== true) {
          return refused("Provide memoryId, query, or all:true.");
        }
        return call(
          "memory_delete",
          {
            ...(params.memoryId === undefined ? {} : { memory_id: params.memoryId }),
            ...(params.query === undefined ? {} : { query: params.query }),
            ...(params.all === true ? { all: true, confirm: params.confirm === true } : {}),
            ...scope(params),
          },
          "Memory delete failed",
        );
      },
    },
    {
      name: "memory_event_list",
      label: "Memory Events",
      description: "Recent background jobs (dreams, sweeps) and their status.",
      parameters: object({}),
      execute: () => call("memory_event_list", {}, "Event list failed"),
    },
    {
      name: "memory_event_status",
      label: "Memory Event Status",
      description: "One background job's status and result.",
      parameters: object({ event_id: string("The event id") }, ["event_id"]),
      execute: (_id, params) =>
        call("memory_event_status", { event_id: params.event_id }, "Event status failed"),
    },
  ];
}
