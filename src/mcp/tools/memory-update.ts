import { z } from "zod";
import { LucidError } from "../../errors.js";
import type { UpdateFields } from "../../memory/types.js";
import { clip } from "../render.js";
import { scopeParams } from "../scope-params.js";
import { defineTool } from "../tool.js";
import { getInScope, memoryIdParam } from "./memory-id.js";

export const memoryUpdateTool = defineTool({
  name: "memory_update",
  title: "Correct a memory",
  description:
    "Change a memory that is out of date or wrong: new text (replaces the old, which stays in its " +
    "history), metadata to merge (a key set to null is removed), or pin / unpin it. Prefer this over " +
    "adding a contradicting fact. Only memories of the given scope (the server's default user unless " +
    "you pass user_id / agent_id / app_id / run_id) can be changed.",
  input: {
    memory_id: memoryIdParam,
    text: z.string().min(1).optional().describe("The corrected fact, as one self-contained sentence."),
    metadata: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Keys to merge into the metadata; null removes a key, e.g. {"confidence": 0.9}.'),
    pinned: z.boolean().optional().describe("true pins the memory (dreams never touch it), false unpins it."),
    ...scopeParams,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false },
  async run(args, call) {
    const scope = call.scope(args);
    if (args.text === undefined && args.metadata === undefined && args.pinned === undefined) {
      throw new LucidError("INVALID_ARGUMENT", "Nothing to change: pass `text`, `metadata` or `pinned`.");
    }
    await getInScope(call.memory, args.memory_id, scope);
    const metadata: Record<string, unknown> = { ...args.metadata };
    // Unpinning removes the key rather than storing false, as `lucid unpin` does.
    if (args.pinned !== undefined) metadata.pinned = args.pinned ? true : null;
    const change: UpdateFields = {
      ...(args.text === undefined ? {} : { text: args.text }),
      ...(Object.keys(metadata).length === 0 ? {} : { metadata }),
    };
    const { result } = await call.shown(await call.memory.update(args.memory_id, change));
    return {
      text: `Updated memory ${result.id}: "${clip(result.memory, 80)}"`,
      data: { result },
    };
  },
});
