/**
 * The settings both host plugins share: how to run Lucid (a program or argv), recall's knobs (read
 * strictly, and passed on to `memory_recall` in its snake_case), and the default user.
 *
 * @module
 */

import { userInfo } from "node:os";

export interface RecallSettings {
  readonly tokenBudget?: number;
  readonly maxMemories?: number;
  readonly threshold?: number;
  readonly maxNotes?: number;
  readonly identityAlwaysInclude?: boolean;
  readonly categoryOrder?: readonly string[];
}

const RECALL_NUMBERS = ["tokenBudget", "maxMemories", "threshold", "maxNotes"] as const;
const RECALL_KEYS: readonly string[] = [...RECALL_NUMBERS, "identityAlwaysInclude", "categoryOrder"];

/** A program (`"lucid"`) or argv (`["node", "/opt/lucid/bin/lucid.js"]`); undefined is `["lucid"]`. */
export function readCommand(value: unknown, name: string): string[] {
  if (value === undefined) return ["lucid"];
  if (typeof value === "string" && value !== "") return [value];
  if (isArgv(value)) return value;
  throw new Error(`lucid: ${name} must be a program or argv such as ["node", "/path/to/lucid.js"].`);
}

export function isArgv(value: unknown): value is string[] {
  return (
    Array.isArray(value) && value.length > 0 && value.every((part) => typeof part === "string" && part !== "")
  );
}

/** The `recall` settings, every key checked (an unknown key or a bad value is an error naming it). */
export function readRecall(value: unknown): RecallSettings {
  if (value === undefined) return {};
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    throw new Error("lucid: recall must be an object such as { maxMemories: 10 }.");
  }
  const given = value as Record<string, unknown>;
  const unknown = Object.keys(given).filter((key) => !RECALL_KEYS.includes(key));
  if (unknown.length > 0) {
    throw new Error(
      `lucid: unknown recall settings: ${unknown.join(", ")} (known: ${RECALL_KEYS.join(", ")}).`,
    );
  }
  for (const key of RECALL_NUMBERS) {
    const each = given[key];
    if (each === undefined) continue;
    const whole = key !== "threshold";
    if (typeof each !== "number" || each < 0 || (whole ? !Number.isInteger(each) : each > 1)) {
      throw new Error(
        `lucid: recall.${key} must be ${whole ? "a whole number of 0 or more" : "a number from 0 to 1"}, got ${JSON.stringify(each)}.`,
      );
    }
  }
  if (given.identityAlwaysInclude !== undefined && typeof given.identityAlwaysInclude !== "boolean") {
    throw new Error("lucid: recall.identityAlwaysInclude must be true or false.");
  }
  const order = given.categoryOrder;
  if (
    order !== undefined &&
    !(Array.isArray(order) && order.every((each) => typeof each === "string" && each !== ""))
  ) {
    throw new Error(
      'lucid: recall.categoryOrder must be a list of category names, e.g. ["identity", "rule"].',
    );
  }
  return given as RecallSettings;
}

/** The recall settings as `memory_recall` names them. */
export function recallArgs(recall: RecallSettings): Record<string, unknown> {
  const { tokenBudget, maxMemories, threshold, maxNotes, identityAlwaysInclude, categoryOrder } = recall;
  return {
    ...(tokenBudget === undefined ? {} : { token_budget: tokenBudget }),
    ...(maxMemories === undefined ? {} : { max_memories: maxMemories }),
    ...(threshold === undefined ? {} : { threshold }),
    ...(maxNotes === undefined ? {} : { max_notes: maxNotes }),
    ...(identityAlwaysInclude === undefined ? {} : { identity_always_include: identityAlwaysInclude }),
    ...(categoryOrder === undefined ? {} : { category_order: categoryOrder }),
  };
}

/** Whose memories, when the settings do not say: the OS user. */
export function osUser(): string {
  try {
    return userInfo().username || "default";
  } catch {
    return "default";
  }
}
