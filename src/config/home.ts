import { homedir } from "node:os";
import { join, resolve } from "node:path";

export const CONFIG_FILE_NAME = "lucid.config.json";
export const DATABASE_FILE_NAME = "lucid.db";

/** `~/.lucid`: the home when neither `--home` nor `LUCID_HOME` names one, and the SDK's default. */
export function defaultHome(): string {
  return join(homedir(), ".lucid");
}

/** Lucid's home directory: the `--home` flag, else `LUCID_HOME`, else `~/.lucid`. */
export function resolveHome(options: {
  flag?: string | undefined;
  env: Readonly<Record<string, string | undefined>>;
}): string {
  const given = options.flag ?? (options.env.LUCID_HOME || undefined);
  if (given === undefined) return defaultHome();
  // A quoted "~/x" reaches us unexpanded; expand it as the shell would have.
  const expanded = given === "~" || given.startsWith("~/") ? join(homedir(), given.slice(1)) : given;
  return resolve(expanded);
}

export interface HomePaths {
  home: string;
  /** `lucid.config.json` (it may not exist). */
  configFile: string;
  databasePath: string;
}

/** The home and the files in it, without reading anything. */
export function locateHome(options: Parameters<typeof resolveHome>[0]): HomePaths {
  const home = resolveHome(options);
  return { home, configFile: join(home, CONFIG_FILE_NAME), databasePath: join(home, DATABASE_FILE_NAME) };
}
