import { memoryIdArg } from "../args/memory-id.js";
import type { Command } from "../command.js";
import { defineCommand } from "../command.js";
import { oneLine } from "../output/format.js";

/** `pin` and `unpin`: an update of `metadata.pinned` (set to true, or removed). */
function createPinCommand(pinned: boolean): Command {
  const name = pinned ? "pin" : "unpin";
  return defineCommand({
    name,
    summary: pinned
      ? "Pin a memory: consolidation never changes or removes it"
      : "Unpin a memory (removes metadata.pinned)",
    args: [{ name: "id", required: true, description: "the memory's id" }],
    flags: {},
    scoped: false,
    examples: [`lucid ${name} 0b6e2f1a-3c2d-4e5f-9a8b-7c6d5e4f3a2b`],
    async run(context) {
      const id = await memoryIdArg(context, context.args[0] as string);
      const memory = await context.memory();
      const result = await context.shown(
        await memory.update(id, { metadata: { pinned: pinned ? true : null } }),
      );
      const verb = pinned ? "Pinned" : "Unpinned";
      return {
        json: { ...result },
        render: () =>
          `${context.style.green(verb)} ${context.style.dim(id)}  ${oneLine(result.result.memory)}`,
      };
    },
  });
}

export const pinCommand = createPinCommand(true);
export const unpinCommand = createPinCommand(false);
