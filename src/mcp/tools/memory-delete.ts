import { z } from "zod";
import { type CallScope, scopedFilters } from "../../edge/call-scope.js";
import { LucidError } from "../../errors.js";
import type { MemoryItem } from "../../memory/types.js";
import { clip, percent, plural } from "../render.js";
import { scopeParams } from "../scope-params.js";
import { defineTool, type ToolCall, type ToolReply } from "../tool.js";
import { getInScope, memoryIdParam } from "./memory-id.js";

export const memoryDeleteTool = defineTool({
  name: "memory_delete",
  title: "Forget memories",
  description:
    "Delete memories, in one of three ways (the first given wins): `memory_id` deletes that memory; " +
    "`query` deletes the memory the words describe, but only when one match is clearly the one meant " +
    "— otherwise nothing is deleted and the candidates are returned with their ids, so you can ask the " +
    "user and delete by id; `all: true` with `confirm: true` deletes every memory of the scope (ask the " +
    "user first). Acts only in the given scope: the server's default user unless you pass user_id / " +
    "agent_id / app_id / run_id. History keeps a record of what was deleted.",
  input: {
    memory_id: memoryIdParam.optional(),
    query: z.string().min(1).optional().describe("Describe the memory to forget, in words."),
    all: z.boolean().optional().describe("Delete every memory of the scope. Needs `confirm: true`."),
    confirm: z
      .boolean()
      .optional()
      .describe("Must be true with `all`: the user agreed to delete everything."),
    ...scopeParams,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(args, call) {
    const scope = call.scope(args);
    if (args.memory_id !== undefined) return deleteById(call, args.memory_id, scope);
    if (args.query !== undefined) return deleteByQuery(call, args.query, scope);
    if (args.all === true) {
      if (args.confirm !== true) {
        throw new LucidError(
          "INVALID_ARGUMENT",
          `Bulk deletion requires confirm: true (it deletes every memory of ${scope.label}).`,
        );
      }
      const { deleted } = await call.memory.deleteAll({ filters: scopedFilters(scope) });
      return {
        text: `All memories deleted for ${scope.label}: ${plural(deleted, "memory", "memories")}.`,
        data: { scope: scope.scope, deleted },
      };
    }
    throw new LucidError("INVALID_ARGUMENT", "Provide memory_id, query, or all: true (with confirm: true).");
  },
});

async function deleteById(call: ToolCall, id: string, scope: CallScope): Promise<ToolReply> {
  const item = await call.shown(await getInScope(call.memory, id, scope));
  await call.memory.delete(id);
  return { text: `Deleted: "${clip(item.memory, 80)}" (id: ${id})`, data: { deleted: item, candidates: [] } };
}

async function deleteByQuery(call: ToolCall, query: string, scope: CallScope): Promise<ToolReply> {
  const { deleted, candidates } = await call.shown(
    await call.memory.forget(query, { filters: scopedFilters(scope) }),
  );
  const data = { scope: scope.scope, deleted, candidates };
  if (deleted !== null) return { text: `Deleted: "${clip(deleted.memory, 80)}" (id: ${deleted.id})`, data };
  if (candidates.length === 0) return { text: "No matching memories found. Nothing was deleted.", data };
  return {
    text: [
      `No clear match; nothing was deleted. Found ${plural(candidates.length, "candidate")}; delete one by memory_id:`,
      ...candidates.map(
        (item: MemoryItem) => `- [${item.id}] ${clip(item.memory, 80)} (${percent(item.score)})`,
      ),
    ].join("\n"),
    data,
  };
}
