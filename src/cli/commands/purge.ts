import type { PurgeResult } from "../../memory/purge.js";
import { memoryIdArg } from "../args/memory-id.js";
import { defineCommand } from "../command.js";
import { plural } from "../output/format.js";
import type { Style } from "../output/style.js";
import { UsageError } from "../usage-error.js";

export const purgeCommand = defineCommand({
  name: "purge",
  summary: "Erase a memory and every trace of it: history, undo's preimages, its credentials elsewhere",
  args: [{ name: "id", required: true, description: "the memory's id (it may already be deleted)" }],
  flags: { yes: { type: "boolean", description: "confirm (required: a purge cannot be undone)" } },
  scoped: false,
  examples: ["lucid purge 0b6e2f1a-3c2d-4e5f-9a8b-7c6d5e4f3a2b --yes"],
  notes: [
    "`delete` keeps the memory's history, and a dream run keeps the preimage of every memory it changed so " +
      "that undo is exact. `purge` erases all of it: the memory, its history, the preimages runs keep of it " +
      "(their undo no longer restores it), and every credential its texts held from its scope's messages and " +
      "the runs' plans. The file is then compacted, so the bytes are gone from disk as well.",
  ],
  async run(context) {
    const given = context.args[0] as string;
    if (!context.flags.yes) {
      throw new UsageError(
        `purging ${given} cannot be undone: pass --yes to erase it and every trace of it.`,
        "purge",
      );
    }
    const id = await memoryIdArg(context, given);
    const result = await (await context.memory()).purge(id);
    const { style } = context;
    return {
      json: { ...result },
      render: () => renderPurge(result, style),
    };
  },
});

function renderPurge(result: PurgeResult, style: Style): string {
  const erased = [
    result.deleted ? "the memory" : "the deleted memory's remains",
    plural(result.history, "history row"),
    ...(result.runs === 0
      ? []
      : [`its record in ${plural(result.runs, "run")} (their undo no longer restores it)`]),
  ];
  const secrets =
    result.secrets === 0
      ? "No credential in its texts."
      : `${plural(result.secrets, "credential")} it held scrubbed from ${plural(result.messages, "message")} and ${plural(result.runPlans, "run plan")}.`;
  return [
    `${style.green("Purged")} ${result.id}: ${erased.join(", ")}. ${secrets}`,
    result.compacted
      ? style.dim("The file is compacted: the erased bytes are gone from disk.")
      : style.yellow(
          "Another process has the store open: part of the write-ahead log remains until it closes.",
        ),
  ].join("\n");
}
