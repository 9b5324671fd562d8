/**
 * One resolved policy from its layers, lowest precedence first:
 * defaults (`DEFAULT_CATEGORIES`, `DEFAULT_THRESHOLDS`) ← `lucid.config.json` `policy` ←
 * the project's Mem0 retention files (`mem0.md` ← `.mem0.md` ← `.mem0.json`) ← `--policy FILE` ←
 * SDK options.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import { deepFreeze } from "../freeze.js";
import { type CategoryPolicy, DEFAULT_CATEGORIES } from "./categories.js";
import { DEFAULT_THRESHOLDS, type Policy, type PolicySource } from "./policy.js";
import { type PolicyLayer, readPolicyLayer } from "./policy-layer.js";
import { readPolicyFile, readProjectPolicy, type SourcedLayer } from "./read-policy-files.js";

export interface PolicyInput {
  /** The `policy` section of `lucid.config.json`, with its `dream.gate` as `gate`. Validated. */
  config?: PolicyLayer;
  /** A project directory whose `.mem0.json`, `.mem0.md` and `mem0.md` retention settings apply. */
  projectDir?: string;
  /** A policy file over the config and the project's files (`--policy FILE`). */
  policyFile?: string;
  /** A layer given in code (`openMemory({ policy })`), over everything else. Validated. */
  sdk?: PolicyLayer;
}

/** A category a layer introduces starts from these values. */
const NEW_CATEGORY: CategoryPolicy = { importance: 0.5, ttlDays: null, immutable: false };

/**
 * Reads the policy's files and merges every layer into one frozen `Policy`. A bad value in the
 * config layer or a file is an `INVALID_CONFIG` error naming the file and key, in the SDK layer an
 * `INVALID_ARGUMENT`; retention lines that are not understood are skipped and listed in `warnings`.
 *
 * @example
 * const policy = await resolvePolicy({ config: loaded.config.policy, projectDir: process.cwd() });
 * policy.categories.session_state?.ttlDays; // => 90, or what .mem0.json says
 */
export async function resolvePolicy(input: PolicyInput = {}): Promise<Policy> {
  const layers: SourcedLayer[] = [];
  if (input.config !== undefined) {
    const layer = readPolicyLayer(input.config, (key, message) => {
      throw new LucidError("INVALID_CONFIG", `lucid.config.json: policy.${key}: ${message}`, {
        details: { key: `policy.${key}` },
      });
    });
    layers.push({ source: { kind: "config" }, layer, warnings: [] });
  }
  if (input.projectDir !== undefined) layers.push(...(await readProjectPolicy(input.projectDir)));
  if (input.policyFile !== undefined) layers.push(await readPolicyFile(input.policyFile));
  if (input.sdk !== undefined) {
    const layer = readPolicyLayer(input.sdk, (key, message) => {
      throw new LucidError("INVALID_ARGUMENT", `policy.${key}: ${message}`, {
        details: { key: `policy.${key}` },
      });
    });
    layers.push({ source: { kind: "sdk" }, layer, warnings: [] });
  }
  return buildPolicy(layers);
}

/**
 * Merges already-read layers over the defaults, field by field, and deep-freezes the result.
 *
 * @example
 * const policy = buildPolicy([{ source: { kind: "sdk" }, layer: { lowConfidence: 0.2 }, warnings: [] }]);
 */
export function buildPolicy(layers: readonly SourcedLayer[]): Policy {
  const categories: Record<string, CategoryPolicy> = { ...DEFAULT_CATEGORIES };
  let duplicates = { ...DEFAULT_THRESHOLDS.duplicates };
  let contradictions = { ...DEFAULT_THRESHOLDS.contradictions };
  let secrets = { ...DEFAULT_THRESHOLDS.secrets };
  let gate = { ...DEFAULT_THRESHOLDS.gate };
  let strictCategories: boolean = DEFAULT_THRESHOLDS.strictCategories;
  let lowConfidence: number = DEFAULT_THRESHOLDS.lowConfidence;
  let maxLength: number = DEFAULT_THRESHOLDS.maxLength;
  let anchorCategories: readonly string[] = DEFAULT_THRESHOLDS.anchorCategories;
  const sources: PolicySource[] = [{ kind: "defaults" }];
  const warnings: string[] = [];

  for (const { source, layer, warnings: layerWarnings } of layers) {
    sources.push(source);
    warnings.push(...layerWarnings);
    for (const [name, change] of Object.entries(layer.categories ?? {})) {
      categories[name] = { ...(categories[name] ?? NEW_CATEGORY), ...definedOnly(change) };
    }
    duplicates = { ...duplicates, ...definedOnly(layer.duplicates) };
    contradictions = { ...contradictions, ...definedOnly(layer.contradictions) };
    secrets = { ...secrets, ...definedOnly(layer.secrets) };
    gate = { ...gate, ...definedOnly(layer.gate) };
    strictCategories = layer.strictCategories ?? strictCategories;
    lowConfidence = layer.lowConfidence ?? lowConfidence;
    maxLength = layer.maxLength ?? maxLength;
    anchorCategories = layer.anchorCategories ?? anchorCategories;
  }
  return deepFreeze({
    categories,
    strictCategories,
    duplicates,
    contradictions,
    secrets,
    lowConfidence,
    maxLength,
    anchorCategories: [...anchorCategories],
    gate,
    sources,
    warnings,
  });
}

/** Whether `value` is an already-resolved policy (made by `resolvePolicy`) rather than a layer. */
export function isResolvedPolicy(value: unknown): value is Policy {
  return typeof value === "object" && value !== null && Array.isArray((value as Policy).sources);
}

function definedOnly<T extends object>(value: T | undefined): Partial<T> {
  if (value === undefined) return {};
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
