import type { UpdateFields } from "../../memory/types.js";
import { expiresFlag, jsonObjectFlag } from "../args/flag-values.js";
import { memoryIdArg } from "../args/memory-id.js";
import { defineCommand } from "../command.js";
import { renderMemoryDetail } from "../output/render-memories.js";
import { UsageError } from "../usage-error.js";

export const updateCommand = defineCommand({
  name: "update",
  summary: "Change a memory's text, metadata or expiry",
  args: [
    { name: "id", required: true, description: "the memory's id" },
    { name: "text", required: false, description: "the new text (re-embedded; history keeps the old one)" },
  ],
  flags: {
    metadata: {
      type: "string",
      valueHint: "JSON",
      description: "merged into the metadata; a key set to null is removed",
    },
    expires: {
      type: "string",
      valueHint: "DATE",
      description:
        "a new expiry date (YYYY-MM-DD, visible through that day, or a time with its offset), or `never` to clear it",
    },
    category: {
      type: "string",
      valueHint: "NAME",
      description: "file the memory under this category, or `none` to clear it",
    },
  },
  scoped: false,
  examples: [
    'lucid update 0b6e2f1a-3c2d-4e5f-9a8b-7c6d5e4f3a2b "Alice lives in Denver"',
    `lucid update 0b6e2f1a-3c2d-4e5f-9a8b-7c6d5e4f3a2b --metadata '{"confidence":0.95,"draft":null}'`,
    "lucid update 0b6e2f1a-3c2d-4e5f-9a8b-7c6d5e4f3a2b --expires never",
    "lucid update 0b6e2f1a --category decision",
  ],
  async run(context) {
    const [idArg, text] = context.args as [string, string | undefined];
    const given = jsonObjectFlag(context.flags.metadata, "metadata", "update");
    const category = context.flags.category;
    if (category !== undefined && category.trim() === "") {
      throw new UsageError("--category needs a name, or `none` to clear it.", "update");
    }
    const metadata =
      category === undefined ? given : { ...given, category: category === "none" ? null : category };
    const expires = context.flags.expires;
    if (expires !== undefined && expires !== "never") expiresFlag(expires, "update");
    if (text === undefined && metadata === undefined && expires === undefined) {
      throw new UsageError("give the new <text>, --metadata, --category or --expires.", "update");
    }
    const change: UpdateFields = {
      ...(text === undefined ? {} : { text }),
      ...(metadata === undefined ? {} : { metadata }),
      ...(expires === undefined ? {} : { expirationDate: expires === "never" ? null : expires }),
    };
    const memory = await context.memory();
    const id = await memoryIdArg(context, idArg);
    const result = await context.shown(await memory.update(id, change));
    return {
      json: { ...result },
      render: () => `${context.style.green("Updated.")}\n${renderMemoryDetail(result.result, context.style)}`,
    };
  },
});
