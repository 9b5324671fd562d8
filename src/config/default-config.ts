/**
 * What `lucid init` writes: every section with its default, and `$comment` keys (JSON has no
 * comments) pointing at the README, where every key is documented.
 *
 * @module
 */

import { DEFAULT_MAX_TEXT_BYTES } from "../core/inputs.js";

export function renderDefaultConfig(): string {
  const config = {
    $comment:
      "Lucid configuration. Every key is documented in the README, section Configuration. " +
      'Secrets can be written as { "env": "VARIABLE_NAME" } instead of a literal value. ' +
      'No LLM is needed; to use one (add --infer, dream --llm, the diary), add "llm": { "provider": ' +
      '"openai-compatible", "baseURL": "http://127.0.0.1:11434/v1", "model": "llama3.1" } (README: An optional LLM).',
    embedder: {
      $comment:
        'The offline default. For an OpenAI-compatible server: { "provider": "openai-compatible", ' +
        '"baseURL": "http://127.0.0.1:11434/v1", "model": "nomic-embed-text", "dimension": 768, ' +
        '"apiKey": { "env": "OPENAI_API_KEY" } }. Changing it later needs `lucid reembed`.',
      provider: "local",
    },
    policy: {
      $comment: 'Override or add categories, e.g. "meeting_note": { "importance": 0.5, "ttlDays": 30 }.',
      categories: {},
    },
    defaults: {
      $comment:
        'Default scope when no --user/--agent/--app flag is given, e.g. "userId": "alice". ' +
        "LUCID_USER_ID, LUCID_AGENT_ID and LUCID_APP_ID override these.",
    },
    maxTextBytes: DEFAULT_MAX_TEXT_BYTES,
    sleep: {
      $comment:
        "Sleep (`lucid sleep`) takes OpenClaw's dreaming keys, with their defaults: e.g. " +
        '"workspace": "~/notes", "frequency": "0 3 * * *", "phases": { "deep": { "minScore": 0.8 } }. ' +
        "`lucid sleep import-openclaw --config ~/.openclaw/openclaw.json` copies OpenClaw's settings here.",
      enabled: false,
    },
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
