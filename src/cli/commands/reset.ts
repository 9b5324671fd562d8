import { defineCommand } from "../command.js";
import { UsageError } from "../usage-error.js";

export const resetCommand = defineCommand({
  name: "reset",
  summary: "Delete everything in the store: memories, history, entities, messages",
  args: [],
  flags: { yes: { type: "boolean", description: "confirm (required)" } },
  scoped: false,
  examples: ["lucid reset --yes", "lucid reset --yes --home /tmp/scratch-memory"],
  notes: [
    "The config file is kept. To delete one scope's memories use `lucid delete --all --user ID --yes`.",
  ],
  async run(context) {
    if (!context.flags.yes)
      throw new UsageError("reset deletes everything in the store; add --yes to confirm.", "reset");
    const { databasePath } = await context.config();
    await (await context.memory()).reset();
    return {
      json: { message: "Store reset.", path: databasePath },
      render: () =>
        `${context.style.green("Reset")} ${databasePath}: every memory, history row, entity and message deleted.`,
    };
  },
});
