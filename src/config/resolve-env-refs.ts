/**
 * Environment references in the config file: a value written `{ "env": "NAME" }` is replaced by
 * the variable's value when the file is loaded, so secrets (API keys) need not be stored in it.
 *
 * @module
 */

import { configError } from "../errors.js";

/** `{ "env": "NAME" }`: an object with that one key, holding a variable name. */
export function isEnvRef(value: unknown): value is { env: string } {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const keys = Object.keys(value);
  return keys.length === 1 && keys[0] === "env" && typeof (value as { env: unknown }).env === "string";
}

/**
 * A copy of `value` with every env reference replaced by the variable's value. An unset or empty
 * variable is an `INVALID_CONFIG` error naming the key and the variable (never a value).
 */
export function resolveEnvRefs(
  value: unknown,
  options: { env: Readonly<Record<string, string | undefined>>; file: string; path?: string },
): unknown {
  const path = options.path ?? "";
  if (isEnvRef(value)) {
    const resolved = options.env[value.env];
    if (resolved === undefined || resolved === "") {
      throw configError(
        options.file,
        path,
        `refers to the environment variable ${value.env}, which is not set. Set it, or write the value in the file.`,
      );
    }
    return resolved;
  }
  if (Array.isArray(value)) {
    return value.map((item, index) => resolveEnvRefs(item, { ...options, path: `${path}[${index}]` }));
  }
  if (typeof value === "object" && value !== null) {
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      copy[key] = resolveEnvRefs(item, { ...options, path: path === "" ? key : `${path}.${key}` });
    }
    return copy;
  }
  return value;
}
