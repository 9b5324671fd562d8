/**
 * A printable view of a loaded config: values that came from an env reference are shown as the
 * reference (`{ "env": "NAME" }`), and secrets written literally are masked, so `lucid config`
 * and `lucid status` can show everything else.
 *
 * @module
 */

import { isSecretKey, type LucidConfig } from "./config-schema.js";
import { isEnvRef } from "./resolve-env-refs.js";

export const MASK = "********";

/** `config` with secrets masked; `raw` is the file as parsed, before env references were resolved. */
export function redactConfig(config: LucidConfig, raw: unknown): Record<string, unknown> {
  return redact(config, raw, []) as Record<string, unknown>;
}

function redact(value: unknown, raw: unknown, path: readonly string[]): unknown {
  if (isEnvRef(raw)) return { env: raw.env };
  if (typeof value === "string" && isSecretKey(path)) return MASK;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const rawObject = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = redact(item, rawObject[key], [...path, key]);
  return copy;
}
