import { integerFlag } from "../args/flag-values.js";
import { defineCommand } from "../command.js";
import { plural } from "../output/format.js";
import { createProgress } from "../output/progress.js";

export const reembedCommand = defineCommand({
  name: "reembed",
  summary: "Re-embed every memory with the configured embedder (after changing it); resumable",
  args: [],
  flags: {
    "batch-size": {
      type: "string",
      valueHint: "N",
      description: "memories embedded and committed together (default 64)",
    },
  },
  scoped: false,
  examples: ["lucid reembed", "lucid reembed --batch-size 256 --json"],
  notes: [
    "Change `embedder` in lucid.config.json, then run this. Each batch commits on its own: if it is " +
      "interrupted, run it again to continue. Until it finishes, add and search fail with EMBEDDER_MISMATCH.",
  ],
  async run(context) {
    const batchSize = integerFlag(context.flags["batch-size"], "batch-size", "reembed");
    const memory = await context.memory({ allowEmbedderChange: true });
    const progress = createProgress(context.io.stderr, { label: "Re-embedding", style: context.errorStyle });
    const result = await memory
      .reembed({
        ...(batchSize === undefined ? {} : { batchSize }),
        onProgress: ({ done, total }) => progress.update(done, total),
      })
      .finally(() => progress.done());
    const { embedder } = await memory.status();
    const name = embedder === null ? "the configured embedder" : `${embedder.id} (${embedder.dimension}-d)`;
    return {
      json: { ...result, embedder },
      render: () =>
        result.reembedded === 0
          ? `Every memory is already embedded with ${name}; nothing to do.`
          : `${context.style.green("Re-embedded")} ${plural(result.reembedded, "memory", "memories")} with ${name}.`,
    };
  },
});
