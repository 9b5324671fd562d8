import { integerFlag } from "../args/flag-values.js";
import { defineCommand } from "../command.js";
import { plural } from "../output/format.js";
import { createProgress } from "../output/progress.js";

export const reembedCommand = defineCommand({
  name: "reembed",
  summary:
    "Re-embed every memory with the configured embedder (after changing it, or to move to the default local model); resumable",
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
    'With no embedder configured (or `"provider": "local"`), a store an older local model wrote (USE lite) ' +
      "is moved to the default local model, MiniLM.",
  ],
  async run(context) {
    const batchSize = integerFlag(context.flags["batch-size"], "batch-size", "reembed");
    const { memoryOptions } = await context.setup();
    // `local` means "the store's own local model" when opening; re-embedding moves it to the default.
    const target =
      memoryOptions.embedder === undefined
        ? {
            embedder: (await import("../../embed/local/local-embedder.js")).createLocalEmbedder(
              memoryOptions.localEmbedder,
            ),
          }
        : {};
    const memory = await context.memory({ allowEmbedderChange: true, ...target });
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
