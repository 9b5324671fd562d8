/**
 * Loads `lucid.config.json` from Lucid's home and resolves it, once, into what an edge (the CLI, the
 * MCP server, later the HTTP API) needs: the one policy (the config's, the project's Mem0 retention
 * files, a policy file), `MemoryOptions` for `openMemory` and the default scope. The file is
 * optional: without it every key has its default.
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import type { ScopeOptions } from "../core/scope.js";
import { configError } from "../errors.js";
import type { Policy } from "../policy/policy.js";
import { resolvePolicy } from "../policy/resolve-policy.js";
import type { MemoryOptions } from "../sdk/create-context.js";
import {
  type EmbedderConfig,
  isSecretKey,
  type LucidConfig,
  type StoreConfig,
  validateConfig,
} from "./config-schema.js";
import { createConfiguredEmbedder } from "./configured-embedder.js";
import { resolveDefaultScope, type ScopeDefaults, scopeOptionsOf } from "./default-scope.js";
import { locateHome } from "./home.js";
import { redactConfig } from "./redact-config.js";
import { readDeferred, resolveEnvRefs } from "./resolve-env-refs.js";

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
 * loaded.config.embedder.provider; // "local"
 */
export async function loadConfig(options: LoadConfigOptions): Promise<LoadedConfig> {
  const { home, configFile: file, databasePath } = locateHome({ flag: options.home, env: options.env });
  const text = await readConfigText(file);
  const raw: unknown = text === undefined ? {} : parseJson(text, file);
  // Secrets wait for the command that uses them: `lucid list` needs no MCP token.
  const config = validateConfig(resolveEnvRefs(raw, { env: options.env, file, deferred: isSecretKey }), file);
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

export interface SetupOptions extends LoadConfigOptions {
  /** Where the project's Mem0 retention files (`.mem0.json`, `.mem0.md`, `mem0.md`) are read. */
  projectDir?: string | undefined;
  /** A policy file over the config and the project's files (`--policy FILE`). */
  policyFile?: string | undefined;
}

export interface Setup {
  loaded: LoadedConfig;
  /** The one policy every command, tool and background dream of this edge uses. */
  policy: Policy;
  memoryOptions: MemoryOptions;
  /** Default scope from `LUCID_USER_ID`… and `defaults`. */
  defaultScope: ScopeOptions;
}

/**
 * Everything an edge needs in one call: the loaded config, the resolved policy, `openMemory`
 * options and the default scope.
 *
 * @example
 * const { memoryOptions, defaultScope } = await resolveSetup({ env: process.env, projectDir: process.cwd() });
 * const memory = await openMemory(memoryOptions);
 * await memory.add("User prefers tabs", { ...defaultScope });
 */
export async function resolveSetup(options: SetupOptions): Promise<Setup> {
  const loaded = await loadConfig(options);
  const { config } = loaded;
  const gate = config.dream?.gate;
  const policy = await resolvePolicy({
    config: gate === undefined ? config.policy : { ...config.policy, gate },
    ...(options.projectDir === undefined ? {} : { projectDir: options.projectDir }),
    ...(options.policyFile === undefined ? {} : { policyFile: options.policyFile }),
  });
  return {
    loaded,
    policy,
    memoryOptions: withStore(config.store, {
      path: loaded.databasePath,
      ...embedderOptions(config.embedder),
      ...(config.llm === undefined ? {} : { llm: config.llm }),
      ...(config.dream?.llm === undefined ? {} : { dreamLlm: config.dream.llm }),
      policy,
      ...(config.maxTextBytes === undefined ? {} : { maxTextBytes: config.maxTextBytes }),
      ...(config.timeZone === undefined ? {} : { timeZone: config.timeZone }),
    }),
    defaultScope: scopeOptionsOf(loaded.defaultScope),
  };
}

/**
 * `options` with the `store` option of a PostgreSQL store, as a getter defined on the object itself,
 * so its URL is read only when the options are used to open the store (they are spread then): a
 * command that opens no store (`lucid config`) works while the variable the URL refers to is unset,
 * and the URL, which may hold a password, is not kept in the options.
 */
function withStore(config: StoreConfig | undefined, options: MemoryOptions): MemoryOptions {
  if (config === undefined || config.provider === "sqlite") return options;
  const { url, ...settings } = config;
  return Object.defineProperty(options, "store", {
    enumerable: true,
    get: () => ({ ...settings, url: readDeferred(url) }),
  });
}

/** `embedder`, or for `local` the settings of whichever local model the store turns out to need. */
function embedderOptions(config: EmbedderConfig): Pick<MemoryOptions, "embedder" | "localEmbedder"> {
  const embedder = createConfiguredEmbedder(config);
  if (embedder !== undefined) return { embedder };
  if (config.provider === "openai-compatible") return {};
  return {
    localEmbedder: {
      ...(config.batchSize === undefined ? {} : { batchSize: config.batchSize }),
      ...(config.runtime === undefined ? {} : { runtime: config.runtime }),
    },
  };
}

/** The config file's text, or undefined when there is none. */
export async function readConfigText(file: string): Promise<string | undefined> {
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
