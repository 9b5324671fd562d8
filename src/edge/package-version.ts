/**
 * Lucid's version, from package.json: two levels up from every edge's folder, in `src/` under tsx
 * and in `dist/` when built.
 *
 * @module
 */

import { readFileSync } from "node:fs";

export function packageVersion(): string {
  const file = new URL("../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}
