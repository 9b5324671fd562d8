import { z } from "zod";
import { plural } from "../render.js";
import { scopeParams } from "../scope-params.js";
import { defineTool } from "../tool.js";
import { eventsInScope, formatLatency, formatTime } from "./event-view.js";

export const memoryEventListTool = defineTool({
  name: "memory_event_list",
  title: "List background jobs",
  description:
    "List Lucid's background jobs for a scope, newest first: dream runs (memory consolidation, started " +
    "automatically after enough sessions or by memory_dream), imports and re-embeds, each with its " +
    "status (queued, running, succeeded, failed; undone for a reverted dream). Use memory_event_status " +
    "with an id for the details. Shows the server's default user unless you pass user_id / agent_id / " +
    "app_id / run_id.",
  input: {
    limit: z.number().int().min(1).max(200).optional().describe("How many events at most (default 20)."),
    ...scopeParams,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, call) {
    const scope = call.scope(args);
    const all = await eventsInScope(call.memory, call.events, scope);
    const shown = all.slice(0, args.limit ?? 20);
    const text =
      shown.length === 0
        ? "No events found."
        : [
            `${plural(shown.length, "event")}${all.length > shown.length ? ` (of ${all.length})` : ""}:`,
            ...shown.map(
              (event) =>
                `- ${event.id} | ${event.type} | ${event.status} | ${formatLatency(event.latencyMs)} | ${formatTime(event.createdAt)}${event.summary === null ? "" : ` | ${event.summary}`}`,
            ),
          ].join("\n");
    return { text, data: { scope: scope.scope, events: shown, total: all.length } };
  },
});
