import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

/** Every file below `dir`, by relative path, with its bytes: to check that something wrote nothing. */
export function snapshotDir(dir: string): Map<string, string> {
  const found = new Map<string, string>();
  const walk = (at: string) => {
    for (const name of readdirSync(at)) {
      const full = join(at, name);
      if (statSync(full).isDirectory()) walk(full);
      else found.set(relative(dir, full), readFileSync(full, "latin1"));
    }
  };
  walk(dir);
  return found;
}
