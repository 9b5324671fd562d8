import { defineCommand } from "../command.js";

export const sessionCommand = defineCommand({
  name: "session",
  summary: "Record an agent session for the auto-dream gate (interactive triggers count once per id)",
  args: [{ name: "id", required: true, description: "the session's id (a repeated id counts once)" }],
  flags: {
    trigger: {
      type: "string",
      valueHint: "T",
      description:
        "what started it: user (default), cli, mcp…; cron, heartbeat, automation, schedule and subagent do not count",
    },
  },
  scoped: true,
  examples: [
    "lucid session 7f3c2a --user alice",
    "lucid session nightly-2026-11-30 --user alice --trigger cron   # recorded as not counting",
    'lucid session "$CLAUDE_SESSION_ID" --user alice && lucid dream --if-due --user alice',
  ],
  notes: [
    "The gate lets `lucid dream --if-due` run after enough interactive sessions since the scope's last dream " +
      "(5 by default, `dream.gate.minSessions`). `lucid status` shows the count.",
  ],
  async run(context) {
    const sessionId = context.args[0] as string;
    const memory = await context.memory();
    const result = await memory.sessions.record(sessionId, {
      ...(await context.scope()),
      ...(context.flags.trigger === undefined ? {} : { trigger: context.flags.trigger }),
    });
    const why =
      result.reason === "non_interactive" ? "a background trigger does not count" : "already counted";
    return {
      json: { sessionId, ...result },
      render: () =>
        result.counted
          ? `${context.style.green("Counted")} session ${sessionId}: ${result.sessionsSince} since the last dream`
          : `Not counted (${why}): ${result.sessionsSince} sessions since the last dream`,
    };
  },
});
