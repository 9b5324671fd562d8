/**
 * Deep freezing, for values that are data: a resolved policy, a dream plan.
 *
 * @module
 */

/**
 * Freezes an object graph in place and returns it, so nothing downstream can change a plan or a
 * policy after it was made.
 *
 * @example
 * const plan = deepFreeze({ actions: [{ kind: "delete", ids: ["a"] }] });
 * Object.isFrozen(plan.actions[0]); // => true
 */
export function deepFreeze<T>(value: T, seen: WeakSet<object> = new WeakSet()): T {
  // A frozen parent may still hold unfrozen children, so every object is walked once.
  if (typeof value !== "object" || value === null || seen.has(value)) return value;
  seen.add(value);
  if (ArrayBuffer.isView(value)) return value; // typed arrays with elements cannot be frozen
  Object.freeze(value);
  for (const child of Object.values(value)) deepFreeze(child, seen);
  return value;
}
