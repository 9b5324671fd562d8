/**
 * One layer of the policy: what `lucid.config.json` `policy` (and `dream.gate`), a `--policy FILE`
 * or an SDK caller may set, and its one validator. Every field is optional; a layer changes only what
 * it names, field by field (unlike Mem0, where `project: { importance: 0.7 }` silently drops the
 * category's TTL).
 *
 * @module
 */

import type { ExtraSecretPattern } from "../secrets/types.js";
import type { CategoryPolicy } from "./categories.js";
import {
  type ContradictionThresholds,
  type DuplicateThresholds,
  type GateThresholds,
  SECRET_ACTIONS,
  type SecretsPolicy,
} from "./policy.js";

export interface PolicyLayer {
  categories?: Record<string, Partial<CategoryPolicy>>;
  strictCategories?: boolean;
  duplicates?: Partial<DuplicateThresholds>;
  contradictions?: Partial<ContradictionThresholds>;
  secrets?: Partial<SecretsPolicy>;
  gate?: Partial<GateThresholds>;
  lowConfidence?: number;
  maxLength?: number;
  anchorCategories?: readonly string[];
}

export const POLICY_LAYER_KEYS = [
  "categories",
  "strictCategories",
  "duplicates",
  "contradictions",
  "secrets",
  "lowConfidence",
  "maxLength",
  "anchorCategories",
  "gate",
] as const;

/** Reports a bad value at a dotted key (`duplicates.minSimilarity`) and throws. */
export type Fail = (key: string, message: string) => never;

type Json = Record<string, unknown>;
const ANNOTATIONS = new Set(["$comment", "$schema"]);

/**
 * Checks an untrusted layer (parsed JSON, or an SDK argument): unknown keys and values of the
 * wrong type or range are reported through `fail`, so a typo never silently falls back to a default.
 *
 * @example
 * readPolicyLayer({ lowConfidence: 0.2 }, (key, message) => { throw new Error(`${key}: ${message}`); });
 */
export function readPolicyLayer(raw: unknown, fail: Fail, prefix = ""): PolicyLayer {
  const root = object(raw, prefix, fail);
  allowOnly(root, POLICY_LAYER_KEYS, prefix, fail);
  const at = (key: string) => (prefix === "" ? key : `${prefix}.${key}`);
  const layer: PolicyLayer = {};
  if (root.categories !== undefined)
    layer.categories = readCategories(root.categories, at("categories"), fail);
  if (root.strictCategories !== undefined) {
    if (typeof root.strictCategories !== "boolean") {
      fail(at("strictCategories"), `must be true or false, got ${JSON.stringify(root.strictCategories)}.`);
    }
    layer.strictCategories = root.strictCategories;
  }
  if (root.duplicates !== undefined) {
    layer.duplicates = readThresholds(root.duplicates, at("duplicates"), fail, [
      "minSimilarity",
      "neighbours",
    ]);
  }
  if (root.contradictions !== undefined) {
    layer.contradictions = readThresholds(root.contradictions, at("contradictions"), fail, [
      "minSimilarity",
      "neighbours",
    ]);
  }
  if (root.secrets !== undefined) layer.secrets = readSecrets(root.secrets, at("secrets"), fail);
  if (root.gate !== undefined) layer.gate = readGate(root.gate, at("gate"), fail);
  if (root.lowConfidence !== undefined) {
    layer.lowConfidence = unit(root.lowConfidence, at("lowConfidence"), fail);
  }
  if (root.maxLength !== undefined) layer.maxLength = count(root.maxLength, at("maxLength"), fail, 1_000_000);
  if (root.anchorCategories !== undefined) {
    const list = root.anchorCategories;
    if (!Array.isArray(list) || !list.every((name) => typeof name === "string")) {
      fail(at("anchorCategories"), `must be a list of category names, got ${JSON.stringify(list)}.`);
    }
    layer.anchorCategories = [...(list as string[])];
  }
  return layer;
}

function readCategories(raw: unknown, key: string, fail: Fail): Record<string, Partial<CategoryPolicy>> {
  const table = object(raw, key, fail);
  const result: Record<string, Partial<CategoryPolicy>> = {};
  for (const [name, value] of Object.entries(table)) {
    if (ANNOTATIONS.has(name)) continue;
    if (!/^[a-z][a-z0-9_]*$/u.test(name)) fail(`${key}.${name}`, "category names are lower_snake_case.");
    const entry = object(value, `${key}.${name}`, fail);
    allowOnly(entry, ["importance", "ttlDays", "immutable"], `${key}.${name}`, fail);
    const category: Partial<CategoryPolicy> = {};
    if (entry.importance !== undefined) {
      (category as Json).importance = unit(entry.importance, `${key}.${name}.importance`, fail);
    }
    if (entry.ttlDays !== undefined) {
      const ttl = entry.ttlDays;
      if (ttl !== null && !(typeof ttl === "number" && Number.isFinite(ttl) && ttl > 0)) {
        fail(
          `${key}.${name}.ttlDays`,
          `must be a positive number of days or null, got ${JSON.stringify(ttl)}.`,
        );
      }
      (category as Json).ttlDays = ttl;
    }
    if (entry.immutable !== undefined) {
      if (typeof entry.immutable !== "boolean") fail(`${key}.${name}.immutable`, "must be true or false.");
      (category as Json).immutable = entry.immutable;
    }
    result[name] = category;
  }
  return result;
}

/**
 * The auto-dream gate's thresholds (`lucid.config.json` `dream.gate`, or `gate` in a layer).
 *
 * @example
 * readGate({ minSessions: 3 }, "dream.gate", fail); // => { minSessions: 3 }
 */
export function readGate(raw: unknown, key: string, fail: Fail): Partial<GateThresholds> {
  const section = object(raw, key, fail);
  const names = ["minHours", "minSessions", "minMemories"] as const;
  allowOnly(section, names, key, fail);
  const result: { -readonly [K in keyof GateThresholds]?: number } = {};
  for (const name of names) {
    const value = section[name];
    if (value === undefined) continue;
    const whole = name !== "minHours";
    if (
      typeof value !== "number" ||
      !Number.isFinite(value) ||
      value < 0 ||
      (whole && !Number.isInteger(value))
    ) {
      fail(
        `${key}.${name}`,
        `must be a ${whole ? "whole number" : "number"} of 0 or more, got ${JSON.stringify(value)}.`,
      );
    }
    result[name] = value;
  }
  return result;
}

/** Shapes and `onAdd`; `createSecretScanner` checks the rule ids and compiles the patterns. */
function readSecrets(raw: unknown, key: string, fail: Fail): Partial<SecretsPolicy> {
  const section = object(raw, key, fail);
  allowOnly(section, ["onAdd", "disabledRules", "extraPatterns"], key, fail);
  const result: {
    onAdd?: SecretsPolicy["onAdd"];
    disabledRules?: string[];
    extraPatterns?: ExtraSecretPattern[];
  } = {};
  const { onAdd, disabledRules, extraPatterns } = section;
  if (onAdd !== undefined) {
    if (typeof onAdd !== "string" || !(SECRET_ACTIONS as readonly string[]).includes(onAdd)) {
      fail(
        `${key}.onAdd`,
        `must be one of ${SECRET_ACTIONS.map((a) => JSON.stringify(a)).join(", ")}, got ${JSON.stringify(onAdd)}.`,
      );
    }
    result.onAdd = onAdd as SecretsPolicy["onAdd"];
  }
  if (disabledRules !== undefined) {
    if (!Array.isArray(disabledRules) || !disabledRules.every((id) => typeof id === "string")) {
      fail(`${key}.disabledRules`, "must be a list of rule ids.");
    }
    result.disabledRules = [...(disabledRules as string[])];
  }
  if (extraPatterns !== undefined) {
    if (!Array.isArray(extraPatterns)) fail(`${key}.extraPatterns`, "must be a list of patterns.");
    result.extraPatterns = (extraPatterns as unknown[]).map((entry, index) => {
      const pattern = object(entry, `${key}.extraPatterns[${index}]`, fail);
      allowOnly(pattern, ["id", "kind", "pattern", "flags"], `${key}.extraPatterns[${index}]`, fail);
      for (const name of ["id", "kind", "pattern"]) {
        if (typeof pattern[name] !== "string" || pattern[name] === "")
          fail(`${key}.extraPatterns[${index}].${name}`, "must be a non-empty string.");
      }
      if (pattern.flags !== undefined && typeof pattern.flags !== "string") {
        fail(`${key}.extraPatterns[${index}].flags`, 'must be a string of regex flags, e.g. "i".');
      }
      return { ...pattern } as unknown as ExtraSecretPattern;
    });
  }
  return result;
}

function readThresholds<K extends string>(
  raw: unknown,
  key: string,
  fail: Fail,
  names: readonly K[],
): Partial<Record<K, number>> {
  const section = object(raw, key, fail);
  allowOnly(section, names, key, fail);
  const result: Partial<Record<K, number>> = {};
  for (const name of names) {
    const value = section[name];
    if (value === undefined) continue;
    result[name] =
      name === "neighbours" ? count(value, `${key}.${name}`, fail, 200) : unit(value, `${key}.${name}`, fail);
  }
  return result;
}

function object(raw: unknown, key: string, fail: Fail): Json {
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    fail(key, `must be an object, got ${JSON.stringify(raw)}.`);
  }
  return raw as Json;
}

function allowOnly(section: Json, names: readonly string[], key: string, fail: Fail): void {
  for (const name of Object.keys(section)) {
    if (ANNOTATIONS.has(name) || names.includes(name)) continue;
    fail(key === "" ? name : `${key}.${name}`, `unknown key. Allowed here: ${names.join(", ")}.`);
  }
}

function unit(value: unknown, key: string, fail: Fail): number {
  if (typeof value !== "number" || !(value >= 0 && value <= 1)) {
    fail(key, `must be a number from 0 to 1, got ${JSON.stringify(value)}.`);
  }
  return value;
}

function count(value: unknown, key: string, fail: Fail, max: number): number {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > max) {
    fail(key, `must be a whole number from 1 to ${max}, got ${JSON.stringify(value)}.`);
  }
  return value;
}
