/**
 * Reading policy layers from files: a project's Mem0 retention files, and `--policy FILE`.
 *
 * Mem0 reads retention from different files depending on the plugin: the OpenCode dream skill
 * reads `.mem0.json` (`retention`) and else `.mem0.md`; the Claude plugin's parser reads only
 * `mem0.md`. Lucid reads all three and merges them, `.mem0.json` winning over `.mem0.md` over
 * `mem0.md`, so a setting made for either plugin is honoured.
 *
 * @module
 */

import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { configError } from "../errors.js";
import { parseMem0Markdown, type RetentionEntries } from "./parse-mem0-markdown.js";
import type { PolicySource } from "./policy.js";
import { POLICY_LAYER_KEYS, type PolicyLayer, readPolicyLayer } from "./policy-layer.js";
import { parseRetentionValue, retentionCategory } from "./retention-value.js";

export interface SourcedLayer {
  readonly source: PolicySource;
  readonly layer: PolicyLayer;
  readonly warnings: readonly string[];
}

/** Lowest precedence first. */
const PROJECT_FILES = [
  { name: "mem0.md", kind: "mem0-markdown" },
  { name: ".mem0.md", kind: "mem0-markdown" },
  { name: ".mem0.json", kind: "mem0-json" },
] as const;

/**
 * The retention layers of a project directory, lowest precedence first; files that do not exist
 * are skipped. Malformed JSON is an `INVALID_CONFIG` error; a retention line that is not
 * understood is a warning.
 *
 * @example
 * const layers = await readProjectPolicy("/path/to/project");
 * // => [{ source: { kind: "mem0-json", path: ".../.mem0.json" }, layer: { categories: { session_state: { ttlDays: 30 } } }, warnings: [] }]
 */
export async function readProjectPolicy(projectDir: string): Promise<SourcedLayer[]> {
  const layers: SourcedLayer[] = [];
  for (const { name, kind } of PROJECT_FILES) {
    const path = join(projectDir, name);
    const text = await readOptional(path);
    if (text === undefined) continue;
    const entries = kind === "mem0-json" ? parseMem0Json(text, path) : parseMem0Markdown(text, path);
    layers.push({ source: { kind, path }, layer: retentionLayer(entries), warnings: entries.warnings });
  }
  return layers;
}

/**
 * A `--policy FILE`: Markdown is read as a Mem0 retention file; JSON may be a policy layer
 * (`categories`, `duplicates`, `lowConfidence`…, plus an optional `retention`), a whole
 * `lucid.config.json` (its `policy` is used) or a Mem0 `.mem0.json` (its `retention` is used).
 *
 * @example
 * const { layer } = await readPolicyFile("./dream-policy.json");
 */
export async function readPolicyFile(path: string): Promise<SourcedLayer> {
  const text = await readOptional(path);
  if (text === undefined) throw configError(path, "", "does not exist. Check the --policy path.");
  const source: PolicySource = { kind: "policy-file", path };
  if (/\.(?:md|markdown)$/iu.test(path)) {
    const entries = parseMem0Markdown(text, path);
    return { source, layer: retentionLayer(entries), warnings: entries.warnings };
  }
  const raw = parseJson(text, path);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw configError(path, "", "must hold a JSON object.");
  }
  const json = raw as Record<string, unknown>;
  const fail = (key: string, message: string): never => {
    throw configError(path, key, message);
  };
  if (json.policy !== undefined && !("categories" in json)) {
    return { source, layer: readPolicyLayer(json.policy, fail, "policy"), warnings: [] };
  }
  const entries = json.retention === undefined ? undefined : retentionEntries(json.retention, path);
  const own: Record<string, unknown> = {};
  for (const key of POLICY_LAYER_KEYS) if (json[key] !== undefined) own[key] = json[key];
  // A Mem0 project file carries other settings too; a Lucid policy file must not have typos.
  const unknown = Object.keys(json).filter(
    (key) =>
      !(POLICY_LAYER_KEYS as readonly string[]).includes(key) &&
      !["retention", "$comment", "$schema"].includes(key),
  );
  if (entries === undefined && unknown.length > 0) {
    fail(unknown[0] ?? "", `unknown key. Allowed: ${[...POLICY_LAYER_KEYS, "retention"].join(", ")}.`);
  }
  const layer = mergeRetention(readPolicyLayer(own, fail), entries);
  return { source, layer, warnings: entries?.warnings ?? [] };
}

/** `.mem0.json`: the `retention` object, if any. */
export function parseMem0Json(text: string, path: string): RetentionEntries {
  const raw = parseJson(text, path);
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw configError(path, "", "must hold a JSON object.");
  }
  const retention = (raw as Record<string, unknown>).retention;
  return retention === undefined ? { retention: new Map(), warnings: [] } : retentionEntries(retention, path);
}

function retentionEntries(raw: unknown, path: string): RetentionEntries {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw configError(
      path,
      "retention",
      `must be an object of category → retention, e.g. {"session_state": "90d"}.`,
    );
  }
  const retention = new Map<string, number | null>();
  const warnings: string[] = [];
  for (const [key, value] of Object.entries(raw)) {
    if (key === "$comment") continue;
    const category = retentionCategory(key);
    const days = parseRetentionValue(value);
    if (category === undefined || days === undefined) {
      warnings.push(
        `${path}: retention ${JSON.stringify(key)}: ${JSON.stringify(value)} was not understood and is skipped.`,
      );
    } else retention.set(category, days);
  }
  return { retention, warnings };
}

function retentionLayer(entries: RetentionEntries): PolicyLayer {
  return mergeRetention({}, entries);
}

/** Retention sets only `ttlDays`: a category's importance and immutability stay as they were. */
function mergeRetention(layer: PolicyLayer, entries: RetentionEntries | undefined): PolicyLayer {
  if (entries === undefined || entries.retention.size === 0) return layer;
  const categories = { ...layer.categories };
  for (const [name, ttlDays] of entries.retention) categories[name] = { ...categories[name], ttlDays };
  return { ...layer, categories };
}

async function readOptional(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "ENOENT" || code === "ENOTDIR") return undefined;
    throw configError(path, "", `could not be read (${(error as Error).message}).`, error);
  }
}

function parseJson(text: string, path: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw configError(path, "", `is not valid JSON (${(error as Error).message}).`, error);
  }
}
