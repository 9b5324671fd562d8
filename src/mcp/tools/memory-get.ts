import { SCOPE_KEYS } from "../../core/scope.js";
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
    "server's default user unless you pass user_id / agent_id / app_id / run_id) can be read.",
  input: { memory_id: memoryIdParam, ...scopeParams },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, call) {
    const scope = call.scope(args);
    const item = await call.shown(await getInScope(call.memory, args.memory_id, scope));
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
