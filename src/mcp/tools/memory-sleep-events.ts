import { z } from "zod";
import { LucidError } from "../../errors.js";
import { defineTool } from "../tool.js";

const EVENT_TYPES = ["memory.recall.recorded", "memory.promotion.applied", "memory.dream.completed"] as const;

export const memorySleepEventsTool = defineTool({
  name: "memory_sleep_events",
  title: "List sleep's event log",
  description:
    "What sleep did in this server's notes workspace, newest first: the daily notes it read " +
    "(memory.recall.recorded), what each sweep's phases did — light staged, REM reflected, deep " +
    "promoted into MEMORY.md, or why a phase failed (memory.dream.completed, with phase and outcome) — " +
    "and each promotion (memory.promotion.applied, with its run id). Needs a server started with a workspace.",
  input: {
    limit: z.number().int().min(1).max(200).optional().describe("How many events at most (default 20)."),
    type: z.enum(EVENT_TYPES).optional().describe("Only events of this type."),
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, call) {
    // The log is the workspace's, not a call's scope's: only the session's binding counts.
    call.checkWorkspaceAccess();
    if (call.workspace === undefined) {
      throw new LucidError(
        "WORKSPACE_NOT_FOUND",
        "This server has no notes workspace: start it with `lucid mcp --workspace DIR` (or set sleep.workspace) to see what sleep did.",
      );
    }
    const events = await call.memory
      .workspace(call.workspace)
      .events({ limit: args.limit ?? 20, ...(args.type === undefined ? {} : { type: args.type }) });
    const describe = (data: Readonly<Record<string, unknown>>) =>
      Object.entries(data)
        .filter(
          ([key, value]) =>
            key !== "keys" && key !== "written" && (typeof value !== "object" || value === null),
        )
        .map(([key, value]) => `${key}=${String(value)}`)
        .join(" ");
    const text =
      events.length === 0
        ? "No sleep events yet: a sweep (lucid sleep) writes them."
        : [
            `${events.length} sleep event${events.length === 1 ? "" : "s"}, newest first:`,
            ...events.map((event) => `- ${event.at} | ${event.type} | ${describe(event.data)}`),
          ].join("\n");
    return { text, data: { workspace: call.workspace, events } };
  },
});
