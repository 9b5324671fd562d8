/**
 * A SQLite FTS5 MATCH expression that finds rows containing any of `terms`, or `null` when there
 * are none (a question made only of stop words does no keyword search).
 *
 * Every term is a double-quoted FTS5 string (embedded quotes doubled), so operators (`AND`, `NOT`,
 * `NEAR`), column filters (`:`), prefixes (`*`), `^` and `-` in user input are matched as text,
 * never parsed as syntax.
 *
 * @example
 * ftsMatchExpression(["editor", "user", "prefer"]); // => '"editor" OR "user" OR "prefer"'
 * ftsMatchExpression([]); // => null
 */
export function ftsMatchExpression(terms: readonly string[]): string | null {
  const quoted = terms.filter((term) => term.length > 0).map((term) => `"${term.replaceAll('"', '""')}"`);
  return quoted.length === 0 ? null : quoted.join(" OR ");
}
