import { SCOPE_ENV_VARS } from "../../config/default-scope.js";
import { defineCommand } from "../command.js";
import { renderFields } from "../output/table.js";

export const configCommand = defineCommand({
  name: "config",
  summary: "Show the loaded configuration (secrets masked) and where the default scope comes from",
  args: [],
  flags: {},
  scoped: false,
  examples: ["lucid config", "lucid config --json", "LUCID_USER_ID=alice lucid config"],
  notes: [
    'Values written as { "env": "NAME" } are shown as that reference; secrets written literally ' +
      "(apiKey, headers) are shown as ********, and a password inside any URL as *** " +
      "(postgres://user:***@host/db).",
  ],
  async run(context) {
    const loaded = await context.config();
    const { style } = context;
    const scope = Object.fromEntries(
      Object.entries(loaded.defaultScope).map(([key, entry]) => [
        key,
        { value: entry.value, from: entry.from },
      ]),
    );
    return {
      json: {
        home: loaded.home,
        path: loaded.file,
        exists: loaded.exists,
        database: loaded.databasePath,
        config: loaded.redacted,
        defaultScope: scope,
      },
      render() {
        const scopeLine =
          Object.entries(loaded.defaultScope)
            .map(([key, entry]) => `${key}=${entry.value} ${style.dim(`(${entry.from})`)}`)
            .join("  ") ||
          style.dim(`none (set ${Object.values(SCOPE_ENV_VARS).join(", ")} or \`defaults\`)`);
        const fields = renderFields(
          [
            ["Home", loaded.home],
            [
              "Config",
              loaded.exists ? loaded.file : `${loaded.file} ${style.dim("(not found: defaults apply)")}`,
            ],
            ["Store", loaded.databasePath],
            ["Scope", scopeLine],
          ],
          style,
        );
        return `${fields}\n\n${JSON.stringify(loaded.redacted, null, 2)}`;
      },
    };
  },
});
