import { describe, expect, it } from "vitest";
import { lastTurn, readTranscript } from "../../src/edge/transcript.js";

const line = (entry: Record<string, unknown>) => JSON.stringify(entry);

describe("readTranscript", () => {
  it("reads JSON messages, { messages }, and JSON lines of messages", () => {
    const messages = [{ role: "user", content: "I prefer tabs" }];
    expect(readTranscript(JSON.stringify(messages))).toEqual(messages);
    expect(readTranscript(JSON.stringify({ messages }))).toEqual(messages);
    expect(readTranscript(messages.map(line).join("\n"))).toEqual(messages);
  });

  it("reads a Claude Code transcript: text blocks kept, tool results marked, side chains and meta entries left out", () => {
    const transcript = [
      line({ type: "summary", summary: "Earlier work" }),
      line({ type: "user", message: { role: "user", content: "We deploy with Terraform." } }),
      line({
        type: "assistant",
        message: { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "Task", input: {} }] },
      }),
      // The main agent's prompt to a subagent, recorded as a user message of the side chain.
      line({
        type: "user",
        isSidechain: true,
        message: { role: "user", content: "Find the Terraform version." },
      }),
      line({ type: "user", isMeta: true, message: { role: "user", content: "<local-command-stdout>ok" } }),
      line({
        type: "user",
        message: { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "1.9" }] },
      }),
      line({
        type: "assistant",
        message: { role: "assistant", content: [{ type: "text", text: "It is 1.9." }] },
      }),
    ].join("\n");
    const messages = readTranscript(transcript);
    expect(messages).toEqual([
      { role: "user", content: "We deploy with Terraform." },
      { role: "tool", content: "" },
      { role: "assistant", content: "It is 1.9." },
    ]);
    expect(lastTurn(messages)[0]).toEqual({ role: "user", content: "We deploy with Terraform." });
  });

  it("says what a conversation must look like when it is neither", () => {
    expect(() => readTranscript('{"text":"hi"}')).toThrow(/JSON list of messages/);
    expect(readTranscript('{"role":"user"}')).toEqual([]);
    expect(() => readTranscript('{"role":"user","content":"a"}\nnot json')).toThrow(/Line 2/);
  });
});
