/**
 * One line of advice under an error, by code: what to run or change next. The message already
 * names the bad value; the hint names the CLI's way out.
 *
 * @module
 */

const HINTS: Record<string, string> = {
  SCOPE_REQUIRED:
    "pass --user, --agent, --app or --run, or set a default: LUCID_USER_ID=… or `defaults.userId` in lucid.config.json",
  MEMORY_NOT_FOUND: "`lucid list --user <id>` shows the ids of a scope's memories",
  INVALID_FILTER: `--filters takes a JSON object, e.g. --filters '{"category":"rule"}'`,
  UNKNOWN_FILTER_OPERATOR: "operators: eq ne gt gte lt lte in nin contains icontains; logic: AND OR NOT",
  UNKNOWN_CATEGORY: "declare new categories under `policy.categories` in lucid.config.json",
  INVALID_CONFIG:
    "every key is documented in the README (Configuration); `lucid init --force` writes a fresh default",
  EMBEDDER_MISMATCH:
    "the store was written with another embedder: restore `embedder` in lucid.config.json, or run `lucid reembed`",
  EMBEDDER_FAILED: "check `embedder` in lucid.config.json (`lucid config` shows it, secrets masked)",
  EMBEDDER_UNAVAILABLE: "reinstall Lucid's dependencies, or configure an openai-compatible embedder",
  STORE_BUSY: "another process is writing to this store; retry in a moment",
  STORE_CORRUPT: "this file is not a readable Lucid store; point --home at another directory",
  SCHEMA_TOO_NEW: "this store was written by a newer Lucid; upgrade lucid-memory",
  LLM_NOT_CONFIGURED:
    "add an `llm` section to lucid.config.json (README: An optional LLM), or leave out --infer / --llm",
  LLM_TIMEOUT: "the LLM did not answer in time: raise `llm.timeoutMs`, or check the server's load",
  LLM_UNAVAILABLE:
    "check that the LLM server is running and `llm.baseURL` is right (`lucid config` shows it)",
  LLM_REJECTED:
    "check `llm.apiKey` and `llm.model` in lucid.config.json (`lucid config` shows them, secrets masked)",
  LLM_BAD_OUTPUT: "the model did not answer in the JSON asked for: try a stronger model, or `llm.jsonMode`",
  LLM_BUDGET_EXCEEDED: "raise `llm.maxCallsPerRun` in lucid.config.json",
  INTERNAL: "this is a bug in Lucid: rerun with --debug and report the stack trace",
};

export function hintFor(code: string): string | undefined {
  return HINTS[code];
}
