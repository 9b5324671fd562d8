/**
 * The OpenClaw plugin's turn rules (Mem0's, `specs/mem0.md` §A.6), on the context shapes OpenClaw
 * 2026.9 passes its hooks: whose memories a turn reads, which turns count, what capture sees.
 */

import { describe, expect, it } from "vitest";
import {
  cleanPrompt,
  isBackground,
  isSubagent,
  lastTurn,
  scopeOf,
  triggerOf,
} from "../../integrations/openclaw/src/sessions.js";

describe("OpenClaw turn rules", () => {
  it("treats cron and heartbeat runs as background, by trigger or by session key", () => {
    expect(isBackground({ trigger: "cron" })).toBe(true);
    expect(isBackground({ trigger: "Heartbeat" })).toBe(true);
    expect(isBackground({ sessionKey: "agent:main:cron:nightly" })).toBe(true);
    expect(isBackground({ trigger: "user", sessionKey: "agent:main:main" })).toBe(false);
  });

  it("lets a subagent read its user's memories but never count a session", () => {
    const context = { sessionKey: "agent:main:subagent:4f1c", trigger: "user" };
    expect(isSubagent(context)).toBe(true);
    expect(triggerOf(context)).toBe("subagent");
    expect(scopeOf("alice", context)).toEqual({ user_id: "alice" });
  });

  it("keeps the main agent's memories the user's and another agent's under its agent_id", () => {
    expect(scopeOf("alice", { agentId: "main", sessionKey: "agent:main:main" })).toEqual({
      user_id: "alice",
    });
    expect(scopeOf("alice", { sessionKey: "agent:ops:main" })).toEqual({ user_id: "alice", agent_id: "ops" });
  });

  it("records a well-formed trigger as given and anything else as a user's", () => {
    expect(triggerOf({ trigger: "schedule" })).toBe("schedule");
    expect(triggerOf({ trigger: "no spaces allowed" })).toBe("user");
    expect(triggerOf({})).toBe("user");
  });

  it("strips the channel envelope from the prompt before recall", () => {
    const raw = 'Sender (untrusted metadata):\n```json\n{"name":"x"}\n```\n[telegram 12:01] what do I drink?';
    expect(cleanPrompt(raw)).toBe("what do I drink?");
    expect(cleanPrompt("[only a tag]")).toBe("[only a tag]");
  });

  it("captures the last turn only, as text, without tool results", () => {
    const messages = [
      { role: "user", content: "An earlier turn." },
      { role: "assistant", content: [{ type: "text", text: "Earlier answer." }] },
      { role: "user", content: [{ type: "text", text: "I prefer oat milk." }] },
      { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "memory_search", input: {} }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "3 memories" }] },
      { role: "assistant", content: [{ type: "text", text: "Noted." }] },
    ];
    // The tool result is a user-role message in the transcript, not the user speaking.
    expect(lastTurn(messages)).toEqual([
      { role: "user", content: "I prefer oat milk." },
      { role: "assistant", content: "Noted." },
    ]);
  });
});
