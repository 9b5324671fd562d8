import { packageVersion } from "../edge/package-version.js";

/** The package version, read from package.json. */
export function lucidVersion(): string {
  return packageVersion();
}
