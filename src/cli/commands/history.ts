import { LucidError } from "../../errors.js";
import type { HistoryEntry } from "../../memory/types.js";
import { memoryIdArg } from "../args/memory-id.js";
import { defineCommand } from "../command.js";
import { terminalWidth } from "../io.js";
import { formatDate, oneLine } from "../output/format.js";
import type { Style } from "../output/style.js";
import { renderTable } from "../output/table.js";

export const historyCommand = defineCommand({
  name: "history",
  summary: "Show every change to a memory, oldest first (kept after deletion)",
  args: [{ name: "id", required: true, description: "the memory's id" }],
  flags: {},
  scoped: false,
  examples: [
    "lucid history 0b6e2f1a-3c2d-4e5f-9a8b-7c6d5e4f3a2b",
    "lucid history 0b6e2f1a-3c2d-4e5f-9a8b-7c6d5e4f3a2b --json",
  ],
  async run(context) {
    const id = await memoryIdArg(context, context.args[0] as string);
    const memory = await context.memory();
    const results = await context.shown(await memory.history(id));
    if (results.length === 0) {
      throw new LucidError(
        "MEMORY_NOT_FOUND",
        `No history for the id ${JSON.stringify(id)}: no such memory was ever stored here.`,
        {
          details: { id },
        },
      );
    }
    const { style } = context;
    return {
      json: { id, results },
      render: () =>
        renderTable(
          [
            { header: "WHEN" },
            { header: "ACTION" },
            { header: "ACTOR", droppable: true },
            { header: "CHANGE", flex: true },
          ],
          results.map((entry) => [
            formatDate(entry.created_at),
            paintAction(entry, style),
            entry.actor,
            describeChange(entry),
          ]),
          { style, width: terminalWidth(context.io.stdout) },
        ),
    };
  },
});

function paintAction(entry: HistoryEntry, style: Style) {
  const paint = entry.action === "ADD" ? style.green : entry.action === "DELETE" ? style.red : style.yellow;
  return { text: entry.action, paint };
}

function describeChange(entry: HistoryEntry): string {
  const before = entry.previous_value === null ? undefined : oneLine(entry.previous_value);
  const after = entry.new_value === null ? undefined : oneLine(entry.new_value);
  if (before !== undefined && after !== undefined) {
    const others = (entry.changed ?? []).filter((name) => name !== "text");
    const also = others.length === 0 ? "" : ` (${others.join(", ")} changed)`;
    if (before !== after) return `${before} → ${after}${also}`;
    // Rows from before history named its changes say only that the text stayed.
    return others.length === 0
      ? `${after} (text unchanged)`
      : `${after} (${others.join(", ")} changed; text unchanged)`;
  }
  return after ?? before ?? "";
}
