import { mkdir, writeFile } from "node:fs/promises";
import { renderDefaultConfig } from "../../config/default-config.js";
import { defineCommand } from "../command.js";

export const initCommand = defineCommand({
  name: "init",
  summary: "Write a default lucid.config.json to the home (optional: defaults apply without it)",
  args: [],
  flags: { force: { type: "boolean", description: "overwrite an existing config file" } },
  scoped: false,
  examples: ["lucid init", "lucid init --home ./.lucid", "lucid init --force"],
  notes: ['JSON has no comments: the file explains itself with "$comment" keys, which Lucid ignores.'],
  async run(context) {
    const { home, configFile } = context.paths;
    await mkdir(home, { recursive: true });
    let created = true;
    try {
      await writeFile(configFile, renderDefaultConfig(), { flag: context.flags.force ? "w" : "wx" });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      created = false;
    }
    const { style } = context;
    return {
      json: { path: configFile, created },
      render: () =>
        created
          ? `${style.green("Wrote")} ${configFile}`
          : `${configFile} already exists; left unchanged (--force overwrites it).`,
    };
  },
});
