/**
 * A condition's operand as each operator needs it — a list, one value, a non-null one — read the
 * same way by every backend's compiler, so a malformed filter fails with the same INVALID_FILTER
 * whichever store compiles it.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import type { FilterCondition, FilterScalar } from "./filter.js";

/**
 * The operand of `in` / `nin`: a list, or INVALID_FILTER.
 *
 * @example
 * scalars(filterNode.condition("tag", "in", ["a", "b"])); // ["a", "b"]
 */
export function scalars(node: FilterCondition): readonly FilterScalar[] {
  if (Array.isArray(node.value)) return node.value;
  throw operandError(node, "a list");
}

/**
 * The operand of a one-value operator: a single value (null included), or INVALID_FILTER.
 *
 * @example
 * scalarOf(filterNode.condition("tag", "eq", "a")); // "a"
 */
export function scalarOf(node: FilterCondition): FilterScalar {
  if (!Array.isArray(node.value)) return node.value as FilterScalar;
  throw operandError(node, "a single value");
}

/**
 * The operand of an operator that cannot take null (`gt`, `contains`…): a value, or INVALID_FILTER.
 *
 * @example
 * required(filterNode.condition("score", "gte", 0.5)); // 0.5
 */
export function required(node: FilterCondition): string | number | boolean {
  const value = scalarOf(node);
  if (value === null) throw operandError(node, "a non-null value");
  return value;
}

/**
 * INVALID_FILTER for an operand `node.op` cannot take, saying what it `needs`.
 *
 * @example
 * if (typeof value !== "string") throw operandError(node, "a string");
 */
export function operandError(node: FilterCondition, needs: string): LucidError {
  return new LucidError("INVALID_FILTER", `${node.field}: ${node.op} needs ${needs}`, {
    details: { field: node.field, operator: node.op },
  });
}
