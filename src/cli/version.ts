import { readFileSync } from "node:fs";

/** The package version, read from package.json (two levels up from both src/cli and dist/cli). */
export function lucidVersion(): string {
  const file = new URL("../../package.json", import.meta.url);
  return (JSON.parse(readFileSync(file, "utf8")) as { version: string }).version;
}
