/**
 * Lucid as OpenCode's long-term memory:
 * - recall before every model call: the block `memory_recall` gives for the user's latest message
 *   goes beside that message, as a part of it the model reads (`experimental.chat.messages.transform`)
 *   — never into the system prompt, where OpenCode gives text the authority of its own instructions:
 *   a memory is data about the user, not an instruction;
 * - capture after every turn: when the session goes idle, its last turn (the user's message and
 *   the assistant's text, read back through OpenCode's client) goes to `memory_capture`;
 * - sessions counted on their first message (`memory_session`): when Lucid's gate passes, Lucid
 *   dreams with its own engine, in its own process — no protocol prompt, no turn spent on it;
 * - the `lucid_*` tools for the model.
 *
 * Everything goes through one `lucid mcp` process per plugin instance
 * (`shared/lucid-process.ts`), started on first use. A Lucid failure is logged and the turn goes
 * on without memory.
 *
 * Only the plugin function is exported: OpenCode calls every function a plugin module exports.
 *
 * @module
 */

import { startLucid } from "../../shared/lucid-process.js";
import { recallArgs } from "../../shared/plugin-settings.js";
import { Background } from "./background.js";
import { type PluginConfig, readConfig } from "./config.js";
import type { Hooks, OpencodeClient, Plugin, PluginInput } from "./host.js";
import { type SessionKind, Sessions } from "./sessions.js";
import { createTools } from "./tools.js";
import { lastTurn, type TurnMessage, textOf } from "./turns.js";

// Lucid searches by a message's first 2,000 characters; this only bounds what crosses the pipe.
const MAX_QUERY_CHARS = 4_000;
// Recall holds up the model call: past this the turn goes on without memories. (The first call
// also starts Lucid and loads its sentence model, ~1 s.)
const RECALL_TIMEOUT_MS = 20_000;
// The task tool's child sessions read their user's memories, as a subagent.
const SUBAGENT_NOTE =
  "You are a subagent: use these memories for context, but do not assume you are this user.\n\n";

/**
 * @example
 * // .opencode/plugins/lucid.js is the bundle; OpenCode loads it and calls:
 * const hooks = await LucidPlugin({ client, directory: "/work/app", worktree: "/work/app" });
 */
export const LucidPlugin: Plugin = async (input: PluginInput, options?: Record<string, unknown>) => {
  const config = readConfig(options);
  const log = createLog(input.client);
  const lucid = startLucid({
    command: config.command,
    args: lucidArgs(config, input.directory),
    env: { ...process.env, ...(config.autoDream ? {} : { LUCID_DREAM: "off" }) },
    log: (line) => log("debug", `lucid: ${line}`),
  });
  // Whose session: a parent id makes it a subagent's; a failed lookup is not the user's (fail closed).
  const kindOf = async (sessionID: string): Promise<SessionKind> => {
    try {
      const { data } = await input.client.session.get({ path: { id: sessionID } });
      if (data === undefined || data === null) return "unknown";
      return typeof data.parentID === "string" && data.parentID !== "" ? "subagent" : "user";
    } catch {
      return "unknown";
    }
  };
  const sessions = new Sessions(kindOf);
  const background = new Background();

  const countSession = async (sessionID: string) => {
    try {
      const kind = await sessions.kind(sessionID);
      if (kind === "unknown") {
        log("warn", `lucid: OpenCode did not say whose session ${sessionID} is; it is not counted.`);
        return;
      }
      const trigger = kind;
      const answer = await lucid.call<{ dream?: { started?: string | null } }>("memory_session", {
        session_id: sessionID,
        trigger,
      });
      noteDream(answer.data.dream?.started);
      log("info", `lucid: ${answer.text}`);
    } catch (error) {
      log("warn", `lucid: could not count session ${sessionID}: ${String(error)}`);
    }
  };

  const noteDream = (started: string | null | undefined) => {
    if (typeof started === "string") background.dreamStarted(started);
  };

  const capture = async (sessionID: string) => {
    try {
      // Only the user's sessions are captured: a subagent's, or one the host could not place, is not.
      if (!(await sessions.isUsers(sessionID))) return;
      const turn = (await turnOf(input.client, sessionID)) ?? keptTurn(sessionID);
      if (turn === undefined || !sessions.markCaptured(sessionID, turn.id)) return;
      const answer = await lucid.call<{ dream?: { started?: string | null } }>("memory_capture", {
        messages: turn.messages,
        session_id: sessionID,
        trigger: "user",
      });
      noteDream(answer.data.dream?.started);
      log("info", `lucid: ${answer.text.split("\n").join(" | ")}`);
    } catch (error) {
      log("warn", `lucid: capture failed, nothing was stored for this turn: ${String(error)}`);
    }
  };

  // When OpenCode's client cannot read the session back, the user's words are still known.
  const keptTurn = (sessionID: string): { id: string; messages: TurnMessage[] } | undefined => {
    const prompt = sessions.prompt(sessionID);
    return prompt === undefined
      ? undefined
      : { id: prompt.id, messages: [{ role: "user", content: prompt.text }] };
  };

  const recall = async (sessionID: string): Promise<string | undefined> => {
    const prompt = sessions.prompt(sessionID);
    if (prompt === undefined) return undefined;
    const cached = sessions.cachedRecall(sessionID, prompt.id);
    if (cached !== undefined) return cached;
    const { text, data } = await lucid.call<{ memories?: unknown[]; notes?: unknown[] }>(
      "memory_recall",
      { query: prompt.text.slice(0, MAX_QUERY_CHARS), ...recallArgs(config.recall) },
      { timeoutMs: RECALL_TIMEOUT_MS },
    );
    // Nothing recalled adds nothing to the turn.
    const empty = (data.memories?.length ?? 0) === 0 && (data.notes?.length ?? 0) === 0;
    const block = empty ? "" : sessions.isSubagent(sessionID) ? `${SUBAGENT_NOTE}${text}` : text;
    sessions.cacheRecall(sessionID, prompt.id, block);
    return block;
  };

  const hooks: Hooks = {
    tool: createTools({ lucid: () => lucid, mayWrite: (id) => sessions.isUsers(id) }),

    "chat.message": async (hookInput, output) => {
      const text = textOf(output.parts ?? []);
      if (text === "") return;
      const sessionID = hookInput.sessionID;
      const prompt = { id: output.message?.id ?? hookInput.messageID ?? `${Date.now()}`, text };
      if (sessions.prompted(sessionID, prompt)) {
        background.run(() => countSession(sessionID));
      }
    },

    "experimental.chat.messages.transform": async (_hookInput, output) => {
      if (!config.autoRecall) return;
      const turn = output.messages.findLast((message) => message.info.role === "user");
      // No session: one of OpenCode's own side calls (a title, an agent draft), not the user's turn.
      const sessionID = turn?.info.sessionID;
      if (turn === undefined || sessionID === undefined) return;
      try {
        const block = await recall(sessionID);
        if (block === undefined || block.trim() === "") return;
        turn.parts.push({
          id: `prt_lucid_recall_${turn.info.id}`,
          sessionID,
          messageID: turn.info.id,
          type: "text",
          text: block,
          synthetic: true,
        });
      } catch (error) {
        log("warn", `lucid: recall failed, the turn goes on without memories: ${String(error)}`);
      }
    },

    event: async ({ event }) => {
      const sessionID = event.properties?.sessionID;
      if (typeof sessionID !== "string") return;
      if (event.type === "session.idle" && config.autoCapture) background.run(() => capture(sessionID));
      if (event.type === "session.deleted") sessions.forget(sessionID);
    },

    dispose: async () => {
      await background.settle();
      await background.dreamsDone(lucid, (message) => log("warn", message));
      lucid.close();
    },
  };
  return hooks;
};

export default LucidPlugin;

/** `lucid mcp`'s arguments: the user, the home, and the project as the notes workspace. */
function lucidArgs(config: PluginConfig, directory: string): string[] {
  return [
    ...(config.home === undefined ? [] : ["--home", config.home]),
    "--user",
    config.userId,
    ...(config.notes && directory !== "" ? ["--workspace", directory] : []),
  ];
}

/** The session's last turn as OpenCode stored it, or undefined when it cannot be read. */
async function turnOf(
  client: OpencodeClient,
  sessionID: string,
): Promise<{ id: string; messages: TurnMessage[] } | undefined> {
  try {
    const { data } = await client.session.messages({ path: { id: sessionID } });
    return Array.isArray(data) ? lastTurn(data) : undefined;
  } catch {
    return undefined;
  }
}

/** Logs through OpenCode (its log file), never failing: a log line is not worth a turn. */
function createLog(client: OpencodeClient): (level: "debug" | "info" | "warn", message: string) => void {
  return (level, message) => {
    try {
      client.app.log({ body: { service: "lucid", level, message } }).catch(() => {});
    } catch {
      // no log client: nothing to do
    }
  };
}
