/**
 * The settings both host plugins read: a bad value stops the plugin with a message that names it,
 * before any Lucid process is started.
 */

import { describe, expect, it } from "vitest";
import { readConfig as readOpenclawConfig } from "../../integrations/openclaw/src/config.js";
import { readCommand, readRecall, recallArgs } from "../../integrations/shared/plugin-settings.js";

describe("plugin settings", () => {
  it("takes Lucid's command as a program or argv, and refuses anything else", () => {
    expect(readCommand(undefined, "command")).toEqual(["lucid"]);
    expect(readCommand("/opt/bin/lucid", "command")).toEqual(["/opt/bin/lucid"]);
    expect(readCommand(["node", "/opt/lucid/bin/lucid.js"], "command")).toEqual([
      "node",
      "/opt/lucid/bin/lucid.js",
    ]);
    expect(() => readCommand(["node", ""], "command")).toThrow(/command must be a program or argv/);
    expect(() => readCommand(42, "command")).toThrow(/command must be a program or argv/);
  });

  it("checks every recall setting and passes them on in memory_recall's names", () => {
    const recall = readRecall({ maxMemories: 10, threshold: 0.3, categoryOrder: ["rule", "identity"] });
    expect(recallArgs(recall)).toEqual({
      max_memories: 10,
      threshold: 0.3,
      category_order: ["rule", "identity"],
    });
    expect(() => readRecall({ threshold: 2 })).toThrow(/recall\.threshold must be a number from 0 to 1/);
    expect(() => readRecall({ maxMemories: 1.5 })).toThrow(/recall\.maxMemories must be a whole number/);
    expect(() => readRecall({ topK: 3 })).toThrow(/unknown recall settings: topK/);
    expect(() => readRecall({ categoryOrder: "rule" })).toThrow(/categoryOrder must be a list/);
  });

  it("reads OpenClaw's plugin config with its defaults, and refuses unknown keys", () => {
    const config = readOpenclawConfig({ userId: "alice", autoDream: false });
    expect(config).toMatchObject({
      command: ["lucid"],
      userId: "alice",
      autoRecall: true,
      autoCapture: true,
      autoDream: false,
      topK: 5,
      recall: {},
    });
    expect(() => readOpenclawConfig({ userID: "alice" })).toThrow(/unknown config keys: userID/);
    expect(() => readOpenclawConfig({ autoRecall: "yes" })).toThrow(/autoRecall must be true or false/);
  });
});
