import { formatScope, scopeFromOptions } from "../../core/scope.js";
import { defineCommand } from "../command.js";
import { UsageError } from "../usage-error.js";

const ACTIONS = ["create", "list", "revoke"] as const;

export const keysCommand = defineCommand({
  name: "keys",
  summary: "Create, list and revoke the API keys of `lucid serve`, each bound to one scope",
  args: [
    { name: "action", required: true, description: "create, list or revoke" },
    { name: "id", required: false, description: "revoke: the key's id, as `lucid keys list` shows it" },
  ],
  flags: {},
  scoped: true,
  examples: [
    "lucid keys create --user alice",
    "lucid keys create --user alice --agent coder",
    "lucid keys list",
    "lucid keys revoke key_1a2b3c4d",
  ],
  notes: [
    "A key is printed once, when it is created; the home's keys.json (mode 0600) keeps only its SHA-256 hash. " +
      "Send it as Authorization: Token <key> (MemoryClient's apiKey). A request made with it reads and changes " +
      "only memories of its scope, whatever the request names.",
    "With at least one key, `lucid serve` refuses requests without a valid key; a running server sees new and " +
      "revoked keys at once, and one that has had keys keeps refusing requests without one after the last is revoked.",
  ],
  async run(context) {
    const [action, id] = context.args;
    if (!(ACTIONS as readonly string[]).includes(action ?? "")) {
      throw new UsageError(`unknown action ${JSON.stringify(action)}: use create, list or revoke.`, "keys");
    }
    const { createKey, keysFileOf, readKeys, revokeKey } = await import("../../http/key-store.js");
    const file = keysFileOf(context.paths.home);
    if (action !== "revoke" && id !== undefined) {
      throw new UsageError(`unexpected argument ${JSON.stringify(id)} (only revoke takes an id).`, "keys");
    }
    if (action === "create") {
      // Only the flags: a key's scope is what the person creating it named, never a default.
      const scope = scopeFromOptions(await context.scope({ defaults: false }));
      const { key, record } = await createKey(file, scope);
      return {
        json: { key, id: record.id, scope: record.scope, createdAt: record.createdAt },
        render: () =>
          [
            `Created API key ${record.id} for ${formatScope(record.scope)}:`,
            "",
            `  ${key}`,
            "",
            "It is shown only now; store it where your client reads it (MemoryClient's apiKey).",
          ].join("\n"),
      };
    }
    if (action === "revoke") {
      if (id === undefined)
        throw new UsageError("revoke needs the key's id: lucid keys revoke <id>.", "keys");
      const record = await revokeKey(file, id);
      return {
        json: { revoked: record.id, scope: record.scope },
        render: () => `Revoked API key ${record.id} (${formatScope(record.scope)}).`,
      };
    }
    const keys = await readKeys(file);
    return {
      json: { keys: keys.map(({ id: keyId, scope, createdAt }) => ({ id: keyId, scope, createdAt })) },
      render: () =>
        keys.length === 0
          ? "No API keys: `lucid serve` answers only this machine. Create one with `lucid keys create --user <id>`."
          : keys.map((key) => `${key.id}  ${formatScope(key.scope)}  created ${key.createdAt}`).join("\n"),
    };
  },
});
