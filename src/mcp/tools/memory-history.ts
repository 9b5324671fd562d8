import type { HistoryEntry } from "../../memory/types.js";
import { clip } from "../render.js";
import { scopeParams } from "../scope-params.js";
import { defineTool } from "../tool.js";
import { getInScope, memoryIdParam } from "./memory-id.js";

export const memoryHistoryTool = defineTool({
  name: "memory_history",
  title: "How a memory changed",
  description:
    "The history of one memory, oldest first: when it was added, each update with the old and the " +
    "new text, and who made the change (a dream, an import, a call). Use it when the user asks what a " +
    "memory said before or why it changed. Only memories of the given scope (the server's default user " +
    "unless you pass user_id / agent_id / app_id / run_id) can be read; a deleted memory's history is " +
    "not shown here (`lucid history <id>` shows it).",
  input: { memory_id: memoryIdParam, ...scopeParams },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, call) {
    const scope = call.scope(args);
    // Only a memory of this scope: an id of another scope reads like one that does not exist.
    await getInScope(call.memory, args.memory_id, scope);
    const history = await call.shown(await call.memory.history(args.memory_id));
    return {
      text: [
        `History of ${args.memory_id} (${history.length} changes, oldest first):`,
        ...history.map(renderEntry),
      ].join("\n"),
      data: { memoryId: args.memory_id, history },
    };
  },
});

function renderEntry(entry: HistoryEntry): string {
  const when = entry.created_at.slice(0, 19).replace("T", " ");
  const change =
    entry.action === "ADD"
      ? `added "${clip(entry.new_value ?? "", 100)}"`
      : entry.action === "UPDATE"
        ? `"${clip(entry.previous_value ?? "", 80)}" → "${clip(entry.new_value ?? "", 80)}"`
        : `${entry.action.toLowerCase()}${entry.previous_value === null ? "" : ` "${clip(entry.previous_value, 80)}"`}`;
  const others = (entry.changed ?? []).filter((name) => name !== "text");
  return `- ${when} ${entry.action} by ${entry.actor}: ${change}${others.length === 0 ? "" : ` (${others.join(", ")} changed)`}`;
}
