/**
 * Environment references in the config file: a value written `{ "env": "NAME" }` is replaced by
 * the variable's value when the file is loaded, so secrets (API keys) need not be stored in it.
 * A reference to an unset variable at a key only some commands use (`mcp.token`, `embedder.apiKey`…)
 * is not an error at load: it becomes an {@link UnsetEnvValue}, which fails — naming the key and the
 * variable — only in the command that reads it. `lucid list` in a shell without the MCP token works.
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

/** A value whose environment variable is unset: reading it is the error. */
export class UnsetEnvValue {
  constructor(
    readonly file: string,
    readonly key: string,
    readonly variable: string,
  ) {}

  /** @throws LucidError `INVALID_CONFIG` naming the key and the variable. */
  read(): never {
    throw unsetError(this.file, this.key, this.variable);
  }
}

/** A config value that may wait for its variable: a string, or what to read it from. */
export type DeferredString = string | UnsetEnvValue;

/**
 * The string, or the error its unset variable makes.
 *
 * @example
 * readDeferred(loaded.config.mcp?.token); // the token, or INVALID_CONFIG: mcp.token refers to LUCID_MCP_TOKEN, which is not set
 */
export function readDeferred(value: DeferredString): string;
export function readDeferred(value: DeferredString | undefined): string | undefined;
export function readDeferred(value: DeferredString | undefined): string | undefined {
  return value instanceof UnsetEnvValue ? value.read() : value;
}

/**
 * A copy of `value` with every env reference replaced by the variable's value. An unset or empty
 * variable is an `INVALID_CONFIG` error naming the key and the variable (never a value); at a key
 * `deferred` accepts, it is an {@link UnsetEnvValue} instead.
 */
export function resolveEnvRefs(
  value: unknown,
  options: {
    env: Readonly<Record<string, string | undefined>>;
    file: string;
    path?: string;
    deferred?: (path: readonly string[]) => boolean;
  },
): unknown {
  const path = options.path ?? "";
  if (isEnvRef(value)) {
    const resolved = options.env[value.env];
    if (resolved === undefined || resolved === "") {
      if (options.deferred?.(path.split(".")) === true)
        return new UnsetEnvValue(options.file, path, value.env);
      throw unsetError(options.file, path, value.env);
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

function unsetError(file: string, key: string, variable: string) {
  return configError(
    file,
    key,
    `refers to the environment variable ${variable}, which is not set. Set it, or write the value in the file.`,
  );
}
