import { Readable } from "node:stream";
import { describe, expect, it } from "vitest";
import { type DroppedMessage, LineLimit } from "../../src/mcp/line-limit.js";

/** Feeds `chunks` through a limit of `max` bytes: the lines passed on, and what was dropped. */
async function through(chunks: string[], max: number): Promise<{ out: string; dropped: DroppedMessage[] }> {
  const dropped: DroppedMessage[] = [];
  const limit = new LineLimit(max, (message) => dropped.push(message));
  Readable.from(chunks.map((chunk) => Buffer.from(chunk))).pipe(limit);
  let out = "";
  for await (const chunk of limit) out += (chunk as Buffer).toString("utf8");
  return { out, dropped };
}

describe("LineLimit", () => {
  it("passes whole lines on, however the chunks split them", async () => {
    const { out, dropped } = await through(['{"a":', '1}\n{"b"', ":2}\n", '{"c":3}\n{"d":4}\n'], 64);
    expect(out).toBe('{"a":1}\n{"b":2}\n{"c":3}\n{"d":4}\n');
    expect(dropped).toEqual([]);
  });

  it("drops a line past the limit, up to its newline, and names its id from either end", async () => {
    const big = "x".repeat(200);
    const { out, dropped } = await through(
      [
        `{"method":"m","params":{"t":"${big.slice(0, 50)}`,
        `${big}","id":9},"jsonrpc":"2.0","id":7}\n{"ok":1}\n`,
        `{"jsonrpc":"2.0","id":"s-1","params":{"t":"${big}"}}\n`,
        `{"params":{"id":5,"t":"${big}"}}}\n`,
      ],
      100,
    );
    expect(out).toBe('{"ok":1}\n');
    expect(dropped.map((message) => message.id)).toEqual([7, "s-1", undefined]);
    expect(dropped[0]?.bytes).toBeGreaterThan(100);
  });

  it("passes a last line without a newline at the end of input", async () => {
    expect((await through(['{"a":1}\n{"b":2}'], 64)).out).toBe('{"a":1}\n{"b":2}');
  });
});
