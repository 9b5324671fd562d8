/**
 * Grouping confirmed duplicate pairs: union-find that refuses to join two groups when any member
 * of one cannot be merged with any member of the other. Without the check, "5 km (a) ~ 5 km (b)"
 * and "5 km (b) ~ 10 km (c)" would chain a and c although they were refused against each other.
 *
 * @module
 */

export interface Edge {
  readonly a: string;
  readonly b: string;
  /** Stronger edges join first, so a weak link cannot claim a member a strong one wants. */
  readonly weight: number;
}

export interface GroupOptions {
  /** Whether two memories may share a group (asked only across groups, and remembered by the caller). */
  readonly compatible: (a: string, b: string) => boolean;
  /**
   * Largest group. Real restatements of one fact come in twos and threes; a chain longer than
   * this is more likely a topic than a fact, and checking it costs members².
   */
  readonly maxSize: number;
}

/**
 * Groups of two or more ids joined by `edges`, each sorted, the list sorted by first id.
 *
 * @example
 * groupEdges(
 *   [{ a: "a", b: "b", weight: 0.9 }, { a: "b", b: "c", weight: 0.8 }],
 *   { compatible: (x, y) => !(x === "a" && y === "c"), maxSize: 8 },
 * ); // => [["a", "b"]]
 */
export function groupEdges(edges: readonly Edge[], options: GroupOptions): string[][] {
  const parent = new Map<string, string>();
  const members = new Map<string, string[]>();
  const root = (id: string): string => {
    let current = id;
    for (let next = parent.get(current); next !== undefined && next !== current; next = parent.get(current)) {
      current = next;
    }
    parent.set(id, current);
    return current;
  };
  const ensure = (id: string) => {
    if (!parent.has(id)) {
      parent.set(id, id);
      members.set(id, [id]);
    }
  };

  const ordered = [...edges].sort(
    (x, y) => y.weight - x.weight || byCodeUnit(x.a, y.a) || byCodeUnit(x.b, y.b),
  );
  for (const edge of ordered) {
    ensure(edge.a);
    ensure(edge.b);
    const ra = root(edge.a);
    const rb = root(edge.b);
    if (ra === rb) continue;
    const left = members.get(ra) ?? [];
    const right = members.get(rb) ?? [];
    if (left.length + right.length > options.maxSize) continue;
    if (!left.every((x) => right.every((y) => options.compatible(x, y)))) continue;
    const [big, small, bigRoot, smallRoot] =
      left.length >= right.length ? [left, right, ra, rb] : [right, left, rb, ra];
    parent.set(smallRoot, bigRoot);
    big.push(...small);
    members.delete(smallRoot);
  }
  return [...members.values()]
    .filter((group) => group.length > 1)
    .map((group) => [...group].sort())
    .sort((x, y) => byCodeUnit(x[0] ?? "", y[0] ?? ""));
}

/** Locale-independent order, so plans are identical on every machine. */
function byCodeUnit(x: string, y: string): number {
  return x < y ? -1 : x > y ? 1 : 0;
}
