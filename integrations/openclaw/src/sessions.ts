/**
 * Whose memories a turn is about, and whether it is a person's turn at all (Mem0's OpenClaw
 * isolation rules, `specs/mem0.md` §A.6): cron, heartbeat, automation and schedule runs are not;
 * a subagent (`agent:<parent>:subagent:<uuid>`) reads its user's memories but stores none and is
 * not a session of the user's. The main agent's memories are the user's; another agent's are the
 * user's under that agent (`agent_id`), Lucid's own scope key rather than Mem0's `user:agent:id`.
 *
 * @module
 */

export interface HookContext {
  readonly sessionId?: string;
  readonly sessionKey?: string;
  readonly agentId?: string;
  readonly trigger?: string;
  readonly workspaceDir?: string;
}

const BACKGROUND = new Set(["cron", "heartbeat", "automation", "schedule"]);

export function isBackground(context: HookContext): boolean {
  const trigger = context.trigger?.toLowerCase();
  if (trigger !== undefined && BACKGROUND.has(trigger)) return true;
  return /:cron:|:heartbeat:/iu.test(context.sessionKey ?? "");
}

export function isSubagent(context: HookContext): boolean {
  return /:subagent:/iu.test(context.sessionKey ?? "");
}

/** Lucid's scope parameters for a turn. */
export function scopeOf(userId: string, context: HookContext): { user_id: string; agent_id?: string } {
  const agent = context.agentId ?? /^agent:([^:]+):/u.exec(context.sessionKey ?? "")?.[1];
  return agent === undefined || agent === "main" ? { user_id: userId } : { user_id: userId, agent_id: agent };
}

/** The trigger Lucid records: background runs and subagents never count toward the dream gate. */
export function triggerOf(context: HookContext): string {
  if (isSubagent(context)) return "subagent";
  const trigger = context.trigger?.toLowerCase();
  return trigger !== undefined && /^[a-z][a-z0-9_-]*$/u.test(trigger) ? trigger : "user";
}

/**
 * The user's message without the envelope OpenClaw's channels add (a `Sender (untrusted
 * metadata)` block, a leading `[channel …]` tag), as Mem0's recall cleans it.
 */
export function cleanPrompt(raw: string): string {
  const cleaned = raw
    .replace(/Sender\s*\(untrusted metadata\):\s*```json[\s\S]*?```\s*/giu, "")
    .replace(/^\[.*?\]\s*/u, "")
    .trim();
  return cleaned === "" ? raw : cleaned;
}

type Block = { type?: string; text?: string };

/** The last turn of `agent_end`'s messages as `{ role, content }` text: from the last user message on. */
export function lastTurn(messages: readonly unknown[]): { role: string; content: string }[] {
  const flat = messages.flatMap((message) => {
    if (typeof message !== "object" || message === null) return [];
    const { role, content } = message as { role?: unknown; content?: unknown };
    if (typeof role !== "string") return [];
    if (typeof content === "string") return [{ role, content }];
    if (!Array.isArray(content)) return [];
    const blocks = content as Block[];
    if (blocks.some((block) => block?.type === "tool_result")) return [{ role: "tool", content: "" }];
    const text = blocks
      .filter((block) => block?.type === "text" && typeof block.text === "string")
      .map((block) => block.text)
      .join("\n");
    return text === "" ? [] : [{ role, content: text }];
  });
  for (let index = flat.length - 1; index >= 0; index--) {
    if (flat[index]?.role === "user") return flat.slice(index).filter((message) => message.content !== "");
  }
  return [];
}
