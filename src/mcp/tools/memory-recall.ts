import { z } from "zod";
import { scopeParams } from "../scope-params.js";
import { defineTool } from "../tool.js";

export const memoryRecallTool = defineTool({
  name: "memory_recall",
  title: "Recall memories for a turn",
  description:
    "The memories to keep in mind before answering a message, as one ranked block: identity and " +
    "configuration first, then rules, preferences, decisions…, within a token budget. Hosts call it before " +
    "every turn with the user's message; with a notes workspace, the best note snippets come too.",
  input: {
    query: z.string().describe("The user's message (or what the turn is about)."),
    token_budget: z
      .number()
      .int()
      .min(0)
      .max(100_000)
      .optional()
      .describe("Tokens the block may take (default 1500)."),
    max_memories: z.number().int().min(0).max(200).optional().describe("Memories at most (default 15)."),
    threshold: z.number().min(0).max(1).optional().describe("Least search score of a memory (default 0.2)."),
    max_notes: z.number().int().min(0).max(50).optional().describe("Note snippets at most (default 3)."),
    category_order: z.array(z.string().min(1)).optional().describe("Category ranking, most relevant first."),
    identity_always_include: z
      .boolean()
      .optional()
      .describe("Keep identity and configuration memories whatever the query (default true)."),
    ...scopeParams,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, call) {
    const scope = call.scope(args);
    const recalled = await call.shown(
      await call.memory.recall(args.query, {
        ...scope.options,
        ...(args.token_budget === undefined ? {} : { tokenBudget: args.token_budget }),
        ...(args.max_memories === undefined ? {} : { maxMemories: args.max_memories }),
        ...(args.threshold === undefined ? {} : { threshold: args.threshold }),
        ...(args.max_notes === undefined ? {} : { maxNotes: args.max_notes }),
        ...(args.category_order === undefined ? {} : { categoryOrder: args.category_order }),
        ...(args.identity_always_include === undefined
          ? {}
          : { identityAlwaysInclude: args.identity_always_include }),
        ...(call.workspace === undefined
          ? {}
          : {
              workspace: call.memory.workspace(call.workspace, {
                ...scope.options,
                ...(call.sleepSettings === undefined ? {} : { settings: call.sleepSettings }),
              }),
            }),
      }),
    );
    return { text: recalled.text, data: { scope: scope.scope, ...recalled } };
  },
});
