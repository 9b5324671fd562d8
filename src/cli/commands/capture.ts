import { readFile } from "node:fs/promises";
import { lastTurn, readTranscript } from "../../edge/transcript.js";
import { LucidError } from "../../errors.js";
import type { Message } from "../../memory/types.js";
import { numberFlag } from "../args/flag-values.js";
import { defineCommand } from "../command.js";
import { readText } from "../io.js";
import { plural } from "../output/format.js";
import { readHookInput } from "./hook-input.js";

export const captureCommand = defineCommand({
  name: "capture",
  summary: "Keep the durable facts of a conversation turn (triage, or the LLM's extraction when configured)",
  args: [
    {
      name: "file",
      required: false,
      description: "the conversation: JSON messages or JSON lines (a transcript); - or none for stdin",
    },
  ],
  flags: {
    session: { type: "string", valueHint: "ID", description: "count this session for the auto-dream gate" },
    trigger: {
      type: "string",
      valueHint: "T",
      description: "what started the session (user by default; cron… do not count)",
    },
    "last-turn": { type: "boolean", description: "only the last turn: from the last user message on" },
    threshold: {
      type: "string",
      valueHint: "T",
      description: "least importance kept by triage (default 0.6)",
    },
    triage: { type: "boolean", description: "triage even when an LLM is configured" },
    hook: {
      type: "boolean",
      description:
        "read a hook's JSON from stdin (Claude Code's Stop: session_id, transcript_path) and capture its last turn",
    },
  },
  scoped: true,
  examples: [
    "lucid capture turn.json --user ana --session s-42",
    "lucid capture --hook --user ana   # in a Stop hook: stdin is the hook's JSON",
    `echo '[{"role":"user","content":"I prefer window seats"}]' | lucid capture --user ana`,
  ],
  notes: [
    "Only what the user said is kept; the assistant's words, tool output, questions, requests and chatter are " +
      "dropped, and credentials are redacted. --json lists what was dropped and why.",
  ],
  async run(context) {
    const { flags } = context;
    const source = context.args[0] ?? "-";
    let sessionId = flags.session;
    let messages: Message[];
    if (flags.hook === true) {
      const hook = await readHookInput(await readText(context.io.stdin));
      if (hook.transcriptPath === undefined) {
        throw new LucidError("INVALID_ARGUMENT", "--hook needs transcript_path in the hook's JSON.");
      }
      messages = lastTurn(readTranscript(await readFile(hook.transcriptPath, "utf8")));
      sessionId ??= hook.sessionId;
    } else {
      const text = source === "-" ? await readText(context.io.stdin) : await readFile(source, "utf8");
      const all = readTranscript(text);
      messages = flags["last-turn"] === true ? lastTurn(all) : all;
    }
    const threshold = numberFlag(flags.threshold, "threshold", "capture");
    const memory = await context.memory();
    const result = await context.shown(
      await memory.capture(messages, {
        ...(await context.scope()),
        ...(threshold === undefined ? {} : { importanceThreshold: threshold }),
        ...(flags.triage === true ? { infer: false } : {}),
        ...(sessionId === undefined ? {} : { sessionId }),
        ...(flags.trigger === undefined ? {} : { trigger: flags.trigger }),
      }),
    );
    const stored = result.results.filter((item) => item.event !== "NONE");
    return {
      json: { ...result },
      render: () => {
        const lines = result.results.map((item) => `  ${item.event.padEnd(6)} ${item.memory}`);
        const head =
          stored.length === 0
            ? "Nothing new to remember."
            : `Captured ${plural(stored.length, "memory", "memories")} (${result.mode}):`;
        const session =
          result.session === undefined
            ? []
            : [
                result.session.counted
                  ? `Session counted: ${result.session.sessionsSince} since the last dream.`
                  : `Session not counted (${result.session.reason === "non_interactive" ? "a background trigger" : "already counted"}).`,
              ];
        return [head, ...lines, ...session].join("\n");
      },
    };
  },
});
