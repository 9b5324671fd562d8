import { z } from "zod";
import { scopeParams } from "../scope-params.js";
import { defineTool } from "../tool.js";

export const sessionIdParam = z.string().min(1).max(200);
export const triggerParam = z
  .string()
  .min(1)
  .max(40)
  .optional()
  .describe(
    "What started the session: user (default); cron, heartbeat, automation, schedule and subagent do not count.",
  );

export const memorySessionTool = defineTool({
  name: "memory_session",
  title: "Count a session",
  description:
    "Record a host's session for the auto-dream gate (each id counts once; background triggers never). " +
    "When the gate passes, consolidation (dreaming) starts in the background and its event id is returned.",
  input: {
    session_id: sessionIdParam.describe("The host's session id."),
    trigger: triggerParam,
    ...scopeParams,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, call) {
    const scope = call.scope(args);
    const session = await call.memory.sessions.record(args.session_id, {
      ...scope.options,
      ...(args.trigger === undefined ? {} : { trigger: args.trigger }),
    });
    const dream = session.counted
      ? await call.dreamIfDue(scope)
      : { started: null, reason: "session not counted" };
    const counted = session.counted
      ? `Session counted: ${session.sessionsSince} since the last dream.`
      : `Session not counted (${session.reason === "non_interactive" ? "a background trigger" : "already counted"}).`;
    const dreamLine = dream.started === null ? "" : ` Auto-dream started (event ${dream.started}).`;
    return { text: `${counted}${dreamLine}`, data: { scope: scope.scope, session, dream } };
  },
});
