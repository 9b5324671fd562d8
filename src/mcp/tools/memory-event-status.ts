import { z } from "zod";
import { LucidError } from "../../errors.js";
import { scopeParams } from "../scope-params.js";
import { defineTool } from "../tool.js";
import { eventsInScope, formatLatency, formatTime } from "./event-view.js";

export const memoryEventStatusTool = defineTool({
  name: "memory_event_status",
  title: "Check a background job",
  description:
    "The status and result of one background job (a dream run, import or re-embed) by the id " +
    "memory_event_list or memory_dream returned: queued, running, succeeded or failed, how long it " +
    "took, and what it changed or why it failed. Only jobs of the given scope (the server's default " +
    "user unless you pass user_id / agent_id / app_id / run_id) are visible.",
  input: {
    event_id: z.string().min(1).describe("The event id (evt_…) or a dream run id."),
    ...scopeParams,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, call) {
    const scope = call.scope(args);
    const events = await eventsInScope(call.memory, call.events, scope);
    const event = events.find(
      (candidate) => candidate.id === args.event_id || candidate.runId === args.event_id,
    );
    if (event === undefined) {
      throw new LucidError(
        "RUN_NOT_FOUND",
        `No event or dream run has the id ${JSON.stringify(args.event_id)} in scope ${scope.label}. List them with memory_event_list.`,
        { details: { id: args.event_id } },
      );
    }
    const lines = [
      `Event: ${event.id}`,
      `Type: ${event.type} (${event.trigger})`,
      `Status: ${event.status}`,
      `Latency: ${formatLatency(event.latencyMs)}`,
      `Created: ${formatTime(event.createdAt)}`,
      `Updated: ${formatTime(event.updatedAt)}`,
    ];
    if (event.runId !== null && event.runId !== event.id) lines.push(`Dream run: ${event.runId}`);
    if (event.summary !== null) lines.push("", `Result: ${event.summary}`);
    return { text: lines.join("\n"), data: { event } };
  },
});
