import { formatScope, scopeFromOptions } from "../../core/scope.js";
import { jsonObjectFlag } from "../args/flag-values.js";
import { memoryIdArg } from "../args/memory-id.js";
import { defineCommand } from "../command.js";
import { plural } from "../output/format.js";
import { UsageError } from "../usage-error.js";

export const deleteCommand = defineCommand({
  name: "delete",
  summary: "Delete a memory by id, or every memory of a scope with --all",
  args: [{ name: "id", required: false, description: "the memory's id (or --all with a scope)" }],
  flags: {
    all: {
      type: "boolean",
      description: "delete every memory of the scope given by --user/--agent/--app/--run",
    },
    filters: {
      type: "string",
      valueHint: "JSON",
      description: "with --all: only memories matching these filters",
    },
    yes: { type: "boolean", description: "confirm --all (required)" },
  },
  scoped: true,
  examples: [
    "lucid delete 0b6e2f1a-3c2d-4e5f-9a8b-7c6d5e4f3a2b",
    "lucid delete --all --user alice --yes",
    `lucid delete --all --user alice --filters '{"category":"operational"}' --yes`,
  ],
  notes: [
    "--all needs an explicit scope flag (LUCID_USER_ID and config defaults are not used) and --yes; " +
      "it includes expired memories. To empty the whole store use `lucid reset --yes`.",
  ],
  async run(context) {
    const { flags } = context;
    const id = context.args[0];
    const filters = jsonObjectFlag(flags.filters, "filters", "delete");
    const scope = await context.scope({ defaults: false });
    if (id !== undefined && flags.all) throw new UsageError("give an <id> or --all, not both.", "delete");
    if (id === undefined && !flags.all)
      throw new UsageError("missing <id> (or --all with a scope).", "delete");
    if (id !== undefined) {
      if (Object.keys(scope).length > 0 || filters !== undefined) {
        throw new UsageError("scope flags and --filters only apply with --all.", "delete");
      }
      const full = await memoryIdArg(context, id);
      const result = await (await context.memory()).delete(full);
      return { json: { ...result, id: full }, render: () => `${context.style.green("Deleted")} ${full}` };
    }
    if (!flags.yes) {
      throw new UsageError("delete --all removes every memory of the scope; add --yes to confirm.", "delete");
    }
    if (Object.keys(scope).length === 0 && filters === undefined) {
      throw new UsageError("--all needs a scope: --user, --agent, --app or --run.", "delete");
    }
    const memory = await context.memory();
    const result = await memory.deleteAll({ ...scope, ...(filters === undefined ? {} : { filters }) });
    const where = formatScope(scopeFromOptions(scope));
    return {
      json: { ...result },
      render: () =>
        `${context.style.green("Deleted")} ${plural(result.deleted, "memory", "memories")}${where ? ` (${where})` : ""}.`,
    };
  },
});
