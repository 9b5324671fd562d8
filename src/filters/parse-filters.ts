/**
 * Mem0 filter objects → the frozen `FilterNode` tree. The one gate for user filters: whatever it
 * returns, every backend can compile.
 *
 * Unlike Mem0, two conditions on one key both apply (`AND` lists are not merged with
 * `Object.assign`), and every operator in `{ gte, lte }` is checked, not just the first.
 *
 * @module
 */

import { type FilterNode, filterNode } from "./filter.js";
import { childPath, describeValue, invalidFilter } from "./filter-errors.js";
import { isPlainObject, parseFilterField } from "./parse-filter-field.js";

const LOGICAL_KEYS: Readonly<Record<string, "and" | "or" | "not">> = {
  AND: "and",
  OR: "or",
  NOT: "not",
  $and: "and",
  $or: "or",
  $not: "not",
};

/**
 * Deeper nesting is refused with a typed error rather than a stack overflow (cyclic input) or
 * SQLite's "expression tree is too large" (its limit is 1000 levels; each logical level costs a few).
 */
const MAX_DEPTH = 64;

/**
 * Validates a Mem0-style filter object and returns it as a frozen filter tree: an `and` of the
 * top-level keys. Never mutates `input`.
 *
 * Throws `LucidError("INVALID_FILTER")` for malformed input and
 * `LucidError("UNKNOWN_FILTER_OPERATOR")` for an operator outside `FILTER_OPERATORS`.
 *
 * @example
 * parseFilters({
 *   user_id: "alice",
 *   importance: { gte: 0.5, lte: 0.9 },
 *   OR: [{ category: "preference" }, { tags: { contains: "work" } }],
 *   NOT: [{ source: "import" }],
 * });
 */
export function parseFilters(input: unknown): FilterNode {
  const tree = filterNode.and(parseObject(input, "filters", 0));
  checkSize(tree);
  return tree;
}

/**
 * A filter is a query's condition, not a list of everything wanted: past these sizes a database
 * refuses it ("too many SQL variables") or plans it badly. Refused here, naming the limit.
 */
export const MAX_FILTER_CONDITIONS = 1000;
export const MAX_FILTER_VALUES = 10_000;

function checkSize(tree: FilterNode): void {
  let conditions = 0;
  let values = 0;
  const visit = (node: FilterNode): void => {
    switch (node.kind) {
      case "and":
      case "or":
        for (const child of node.children) visit(child);
        return;
      case "not":
        visit(node.child);
        return;
      case "condition":
        values += Array.isArray(node.value) ? node.value.length : 1;
        conditions++;
        return;
      case "exists":
        conditions++;
        return;
    }
  };
  visit(tree);
  if (conditions > MAX_FILTER_CONDITIONS) {
    throw invalidFilter(
      `filters have ${conditions} conditions; at most ${MAX_FILTER_CONDITIONS} are allowed. Use { field: { in: [...] } } for many values of one field, or narrow the scope.`,
      "filters",
    );
  }
  if (values > MAX_FILTER_VALUES) {
    throw invalidFilter(
      `filters list ${values} values; at most ${MAX_FILTER_VALUES} are allowed. Split the query, or filter on a field that groups them (a category, a tag).`,
      "filters",
    );
  }
}

/** The conjuncts of one filter object; nested `AND`s are flattened into them. */
function parseObject(input: unknown, path: string, depth: number): FilterNode[] {
  if (!isPlainObject(input)) {
    throw invalidFilter(
      `${path} must be a filter object, e.g. { user_id: "alice", category: "preference" }; got ${describeValue(input)}`,
      path,
    );
  }
  if (depth > MAX_DEPTH)
    throw invalidFilter(`${path}: filters nest more than ${MAX_DEPTH} levels deep`, path);
  const conjuncts: FilterNode[] = [];
  for (const [key, value] of Object.entries(input)) {
    const logic = Object.hasOwn(LOGICAL_KEYS, key) ? LOGICAL_KEYS[key] : undefined;
    const at = childPath(path, key);
    conjuncts.push(
      ...(logic === undefined ? parseFilterField(key, value, at) : parseLogical(logic, value, at, depth)),
    );
  }
  return conjuncts;
}

function parseLogical(
  logic: "and" | "or" | "not",
  value: unknown,
  path: string,
  depth: number,
): FilterNode[] {
  if (!Array.isArray(value) || value.length === 0) {
    throw invalidFilter(
      `${path} must be a non-empty array of filter objects, e.g. { OR: [{ category: "food" }, { category: "travel" }] }; ` +
        `got ${Array.isArray(value) ? "an empty array" : describeValue(value)}`,
      path,
    );
  }
  // Array.from visits holes (as undefined, which then fails) where map would skip them.
  const branches = Array.from(value, (item: unknown, index) =>
    parseObject(item, `${path}[${index}]`, depth + 1),
  );
  if (logic === "and") return branches.flat();
  const alternatives = branches.map(conjunction);
  const any =
    alternatives.length === 1 && alternatives[0] !== undefined
      ? alternatives[0]
      : filterNode.or(alternatives);
  // NOT lists "none of these match".
  return [logic === "or" ? any : filterNode.not(any)];
}

function conjunction(conjuncts: FilterNode[]): FilterNode {
  return conjuncts.length === 1 && conjuncts[0] !== undefined ? conjuncts[0] : filterNode.and(conjuncts);
}
