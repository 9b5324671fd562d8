import { z } from "zod";
import { SCOPE_KEYS } from "../../core/scope.js";
import { LucidError } from "../../errors.js";
import type { MemoryItem } from "../../memory/types.js";
import { scopeParams } from "../scope-params.js";
import { defineTool } from "../tool.js";
import { getInScope, memoryIdParam } from "./memory-id.js";

export const memoryGetTool = defineTool({
  name: "memory_get",
  title: "Read a memory",
  description:
    "Read one memory in full by its id: text, category, metadata, scope and dates. Use it when a " +
    "search result was cut short or before updating a memory. Only memories of the given scope (the " +
    "server's default user unless you pass user_id / agent_id / app_id / run_id) can be read. With a " +
    "notes workspace, pass path instead (memory/2026-11-04.md#L3-L5, as memory_search returned it) to " +
    "read those lines of the note.",
  input: {
    memory_id: memoryIdParam.optional(),
    path: z
      .string()
      .min(1)
      .optional()
      .describe("A note's lines, path#Lstart-Lend (from memory_search), instead of memory_id."),
    ...scopeParams,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, call) {
    if ((args.memory_id === undefined) === (args.path === undefined)) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        "Pass either memory_id (a memory) or path (a note's lines), not both.",
      );
    }
    if (args.path !== undefined) {
      // A note is the server's workspace's, not a call's scope's: only the session's binding counts.
      call.checkWorkspaceAccess();
      if (call.workspace === undefined) {
        throw new LucidError(
          "INVALID_ARGUMENT",
          "This server has no notes workspace: start it with `lucid mcp --workspace DIR` to read notes by path.",
        );
      }
      const range = await call.shown(await call.memory.workspace(call.workspace).get(args.path));
      return {
        text: `${range.address} (of ${range.lineCount} lines):\n${range.text}`,
        data: { note: range },
      };
    }
    const scope = call.scope(args);
    const item = await call.shown(await getInScope(call.memory, args.memory_id as string, scope));
    return { text: renderMemory(item), data: { result: item } };
  },
});

function renderMemory(item: MemoryItem): string {
  const { category, ...metadata } = item.metadata;
  const scope = SCOPE_KEYS.flatMap((key) => (item[key] === undefined ? [] : [`${key}=${item[key]}`]));
  const lines = [
    `Memory ${item.id}:`,
    item.memory,
    "",
    `Scope: ${scope.join(", ")}`,
    `Category: ${typeof category === "string" ? category : "none"}`,
  ];
  if (Object.keys(metadata).length > 0) lines.push(`Metadata: ${JSON.stringify(metadata)}`);
  lines.push(`Created: ${item.createdAt}`, `Updated: ${item.updatedAt}`);
  if (item.expiresAt !== undefined) lines.push(`Expires: ${item.expiresAt}`);
  return lines.join("\n");
}
