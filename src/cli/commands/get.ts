import { LucidError } from "../../errors.js";
import { memoryIdArg } from "../args/memory-id.js";
import { defineCommand } from "../command.js";
import { renderMemoryDetail } from "../output/render-memories.js";

export const getCommand = defineCommand({
  name: "get",
  summary: "Show one memory by id",
  args: [{ name: "id", required: true, description: "the memory's id" }],
  flags: {},
  scoped: false,
  examples: [
    "lucid get 0b6e2f1a-3c2d-4e5f-9a8b-7c6d5e4f3a2b",
    "lucid get 0b6e2f1a-3c2d-4e5f-9a8b-7c6d5e4f3a2b --json",
  ],
  notes: ["Expired memories are shown too: expiry hides a memory from search and list, it never deletes it."],
  async run(context) {
    const id = await memoryIdArg(context, context.args[0] as string);
    const memory = await context.memory();
    const item = await context.shown(await memory.get(id));
    if (item === null) {
      throw new LucidError("MEMORY_NOT_FOUND", `No memory has the id ${JSON.stringify(id)}.`, {
        details: { id },
      });
    }
    return { json: { result: item }, render: () => renderMemoryDetail(item, context.style) };
  },
});
