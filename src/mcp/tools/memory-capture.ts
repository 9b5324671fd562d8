import { z } from "zod";
import { plural } from "../render.js";
import { scopeParams } from "../scope-params.js";
import { defineTool } from "../tool.js";
import { sessionIdParam, triggerParam } from "./memory-session.js";

export const memoryCaptureTool = defineTool({
  name: "memory_capture",
  title: "Capture a turn",
  description:
    "Keep the durable facts of a conversation turn: what the user said about themselves, their preferences, " +
    "decisions, people, projects and rules. Chatter, questions, requests, tool output and the assistant's words " +
    "are dropped; credentials are redacted; a fact already known is not stored again. Hosts call it after " +
    "every turn; with session_id the session is counted for the auto-dream gate.",
  input: {
    messages: z
      .array(z.object({ role: z.string().min(1), content: z.string(), name: z.string().optional() }))
      .max(500)
      .describe("The turn's messages, oldest first, as {role, content} with text content."),
    session_id: sessionIdParam.optional().describe("The host's session id, counted once for the gate."),
    trigger: triggerParam,
    importance_threshold: z
      .number()
      .min(0)
      .max(1)
      .optional()
      .describe("Least importance kept (default 0.6)."),
    ...scopeParams,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, call) {
    const scope = call.scope(args);
    const captured = await call.shown(
      await call.memory.capture(args.messages, {
        ...scope.options,
        ...(args.importance_threshold === undefined
          ? {}
          : { importanceThreshold: args.importance_threshold }),
        ...(args.session_id === undefined ? {} : { sessionId: args.session_id }),
        ...(args.trigger === undefined ? {} : { trigger: args.trigger }),
      }),
    );
    const dream =
      captured.session?.counted === true
        ? await call.dreamIfDue(scope)
        : { started: null, reason: "no session counted" };
    const stored = captured.results.filter((item) => item.event !== "NONE");
    const lines = [
      stored.length === 0
        ? "Nothing new to remember."
        : `Captured ${plural(stored.length, "memory", "memories")}:`,
      ...stored.map((item) => `- ${item.event} ${item.memory} (id: ${item.id})`),
      ...(dream.started === null ? [] : [`Auto-dream started (event ${dream.started}).`]),
    ];
    return { text: lines.join("\n"), data: { scope: scope.scope, ...captured, dream } };
  },
});
