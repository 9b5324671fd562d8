/**
 * A warning a caller should see once per process, not on every call: a deprecated option, a Mem0
 * setting Lucid does not use. Node's `process.emitWarning`, so a program can listen for it or
 * silence it (`--no-warnings`) rather than have it printed.
 *
 * @module
 */

const given = new Set<string>();

/**
 * Emits the warning the first time `key` is seen in this process.
 *
 * @example
 * warnOnce("LUCID_NO_RERANKER", "search({ rerank: true }) has no effect …");
 */
export function warnOnce(
  key: string,
  message: string,
  options: { code: string; type?: "Warning" | "DeprecationWarning" },
): void {
  if (given.has(key)) return;
  given.add(key);
  process.emitWarning(message, {
    code: options.code,
    ...(options.type === undefined ? {} : { type: options.type }),
  });
}
