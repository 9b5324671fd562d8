/**
 * A throwaway OpenCode project with Lucid's plugin installed as a user would (the bundle copied to
 * `.opencode/plugins/lucid.js`), a provider pointed at the stub LLM, its own HOME and its own
 * Lucid home; and the Lucid CLI on that home, to seed memories and read back what the plugin did.
 *
 * @module
 */

import { execFileSync } from "node:child_process";
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type HostRun, runOpencode } from "../helpers/hosts.js";

export const ROOT = resolve(fileURLToPath(new URL("../..", import.meta.url)));
export const PLUGIN_BUNDLE = join(ROOT, "integrations", "opencode", "dist", "index.js");
const LUCID_BIN = join(ROOT, "bin", "lucid.js");

/** The user every test's memories belong to. */
export const USER = "u";

/** Bundles the plugin the way `npm run build` in integrations/opencode does. */
export function buildPlugin(): void {
  execFileSync(process.execPath, [join(ROOT, "integrations", "build-plugin.mjs"), "opencode"], {
    cwd: ROOT,
    stdio: "pipe",
  });
}

export interface OpencodeProject {
  readonly dir: string;
  readonly home: string;
  readonly lucidHome: string;
  /** `opencode run --title t --format json <prompt words>` in the project. */
  run(prompt: string, env?: Record<string, string | undefined>): Promise<HostRun>;
  /** `lucid <args> --user u --home <lucidHome> --json`, parsed. */
  lucid<T = Record<string, unknown>>(args: readonly string[]): T;
  /** The texts of the user's stored memories. */
  memories(): string[];
  /** OpenCode's own log files under HOME, joined (where a plugin that fails to load is reported). */
  hostLog(): string;
}

export interface ProjectOptions {
  /** The stub LLM's base URL (`…/v1`). */
  readonly baseURL: string;
  /** The folder to create the project's folders in (a test file's temp dir, removed after it). */
  readonly under: string;
  /** Written to the Lucid home's lucid.config.json. */
  readonly lucidConfig?: Record<string, unknown>;
}

export function createOpencodeProject(options: ProjectOptions): OpencodeProject {
  const root = mkdtempSync(join(options.under, "project-"));
  const dir = join(root, "project");
  const home = join(root, "home");
  const lucidHome = join(root, "lucid");
  mkdirSync(join(dir, ".opencode", "plugins"), { recursive: true });
  mkdirSync(home);
  mkdirSync(lucidHome);
  copyFileSync(PLUGIN_BUNDLE, join(dir, ".opencode", "plugins", "lucid.js"));
  writeFileSync(
    join(dir, "opencode.json"),
    `${JSON.stringify(
      {
        $schema: "https://opencode.ai/config.json",
        model: "stub/m1",
        provider: {
          stub: {
            npm: "@ai-sdk/openai-compatible",
            name: "Stub",
            options: { baseURL: options.baseURL, apiKey: "sk-stub" },
            models: { m1: { name: "m1" } },
          },
        },
      },
      null,
      2,
    )}\n`,
  );
  if (options.lucidConfig !== undefined) {
    writeFileSync(join(lucidHome, "lucid.config.json"), `${JSON.stringify(options.lucidConfig, null, 2)}\n`);
  }

  const lucid = <T>(args: readonly string[]): T =>
    JSON.parse(
      execFileSync(process.execPath, [LUCID_BIN, ...args, "--user", USER, "--home", lucidHome, "--json"], {
        cwd: root,
        encoding: "utf8",
        env: { ...process.env, LUCID_HOME: lucidHome },
      }),
    ) as T;

  return {
    dir,
    home,
    lucidHome,
    run: (prompt, env = {}) =>
      runOpencode(["run", "--title", "t", "--format", "json", ...prompt.split(" ")], {
        home,
        cwd: dir,
        env: {
          LUCID_COMMAND: JSON.stringify([process.execPath, LUCID_BIN]),
          LUCID_HOME: lucidHome,
          LUCID_USER_ID: USER,
          ...env,
        },
      }),
    lucid,
    hostLog: () => {
      const logs = join(home, ".local", "share", "opencode", "log");
      if (!existsSync(logs)) return "";
      return readdirSync(logs)
        .map((name) => readFileSync(join(logs, name), "utf8"))
        .join("\n");
    },
    memories: () =>
      lucid<{ results: { memory: string }[] }>(["list", "--page-size", "500"]).results.map(
        (item) => item.memory,
      ),
  };
}

/** The text the assistant printed in a `--format json` run. */
export function assistantText(run: HostRun): string {
  return run.stdout
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { type?: string; part?: { text?: string } })
    .filter((event) => event.type === "text")
    .map((event) => event.part?.text ?? "")
    .join("");
}
