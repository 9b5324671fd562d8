/**
 * Loads `lucid.config.json` from Lucid's home and resolves it, once, into what an edge (the CLI, the
 * MCP server) needs: `MemoryOptions` for `openMemory` and the default scope. The file is optional:
 * without it every key has its default.
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import type { MemoryOptions } from "../memory/create-context.js";
import type { ScopeOptions } from "../memory/types.js";
import { configError } from "./config-error.js";
import { type LucidConfig, validateConfig } from "./config-schema.js";
import { createConfiguredEmbedder } from "./configured-embedder.js";
import { resolveDefaultScope, type ScopeDefaults, scopeOptionsOf } from "./default-scope.js";
import { locateHome } from "./home.js";
import { redactConfig } from "./redact-config.js";
import { resolveEnvRefs } from "./resolve-env-refs.js";

type Env = Readonly<Record<string, string | undefined>>;

export interface LoadConfigOptions {
  /** Lucid's home directory; default `LUCID_HOME`, else `~/.lucid`. */
  home?: string | undefined;
  /** Where `{ "env": "NAME" }` references, `LUCID_HOME` and `LUCID_USER_ID`… are read. */
  env: Env;
}

export interface LoadedConfig {
  home: string;
  /** Path of `lucid.config.json` (it may not exist). */
  file: string;
  exists: boolean;
  databasePath: string;
  /** Validated, with env references resolved: holds secrets, never print it. */
  config: LucidConfig;
  /** The same with secrets masked and env references shown as references: safe to print. */
  redacted: Record<string, unknown>;
  /** Default scope from `LUCID_USER_ID`… (first) and `defaults` (second), with where each came from. */
  defaultScope: ScopeDefaults;
}

/**
 * Reads and validates the config in `home`. A bad file is an `INVALID_CONFIG` error naming the key.
 *
 * @example
 * const loaded = await loadConfig({ env: process.env });
 * const memory = await openMemory(createMemoryOptions(loaded));
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  const { home, configFile: file, databasePath } = locateHome({ flag: options.home, env: options.env });
  const text = await readConfigText(file);
  const raw: unknown = text === undefined ? {} : parseJson(text, file);
  const config = validateConfig(resolveEnvRefs(raw, { env: options.env, file }), file);
  return {
    home,
    file,
    exists: text !== undefined,
    databasePath,
    config,
    redacted: redactConfig(config, raw),
    defaultScope: resolveDefaultScope(config.defaults, options.env),
  };
}

/** `openMemory` options for a loaded config: the home's database, the configured embedder and policy. */
export function createMemoryOptions(loaded: LoadedConfig, extra: Partial<MemoryOptions> = {}): MemoryOptions {
  const { config } = loaded;
  return {
    path: loaded.databasePath,
    embedder: createConfiguredEmbedder(config.embedder),
    policy: config.policy,
    ...(config.maxTextBytes === undefined ? {} : { maxTextBytes: config.maxTextBytes }),
    ...extra,
  };
}

/**
 * Everything an edge needs in one call: the loaded config, `openMemory` options and the default scope.
 *
 * @example
 * const { memoryOptions, defaultScope } = await resolveSetup({ env: process.env });
 * const memory = await openMemory(memoryOptions);
 * await memory.add("User prefers tabs", { ...defaultScope });
 */
export async function resolveSetup(
  options: LoadConfigOptions,
): Promise<{ loaded: LoadedConfig; memoryOptions: MemoryOptions; defaultScope: ScopeOptions }> {
  const loaded = await loadConfig(options);
  return {
    loaded,
    memoryOptions: createMemoryOptions(loaded),
    defaultScope: scopeOptionsOf(loaded.defaultScope),
  };
}

async function readConfigText(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw configError(file, "", `could not be read (${(error as Error).message}).`, error);
  }
}

function parseJson(text: string, file: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw configError(
      file,
      "",
      `is not valid JSON (${(error as Error).message}). JSON has no comments: use "$comment" keys.`,
      error,
    );
  }
}
