import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { COMMANDS } from "../../src/cli/commands/index.js";
import { ANSI, BIN, runCli, runJson, tempHomes } from "./run-cli.js";

const newHome = tempHomes();

describe("help and version", () => {
  it("lists every command in --help, and prints the version", async () => {
    const help = await runCli(["--help"]);
    expect(help.code).toBe(0);
    for (const command of COMMANDS) expect(help.stdout).toMatch(new RegExp(`^  ${command.name}\\s`, "m"));
    expect((await runCli([])).stdout).toBe(help.stdout);

    const { version } = (await import("../../package.json", { with: { type: "json" } })).default;
    expect((await runCli(["--version"])).stdout).toBe(`${version}\n`);
    expect((await runJson(["--version"])).json).toEqual({ ok: true, version });
  });

  it.each(COMMANDS.map((command) => command.name))("has help with examples for `%s`", async (name) => {
    const viaHelp = await runCli(["help", name]);
    expect(viaHelp.code).toBe(0);
    expect(viaHelp.stdout).toMatch(new RegExp(`^Usage\\n  lucid ${name}`, "m"));
    expect(viaHelp.stdout).toMatch(/^Examples\n {2}\S/m);
  });

  it("gives the same help with --help after a command, even when its arguments are missing", async () => {
    for (const name of ["search", "update"]) {
      expect((await runCli([name, "--help"])).stdout).toBe((await runCli(["help", name])).stdout);
    }
  });
});

describe("usage errors exit 2", () => {
  it("names an unknown command and suggests the closest", async () => {
    const { code, stderr, stdout } = await runCli(["serach", "x"]);
    expect(code).toBe(2);
    expect(stdout).toBe("");
    expect(stderr).toMatch(
      /^error\[USAGE\]: unknown command "serach"\. Did you mean `lucid search`\?\nusage: lucid <command>/,
    );
  });

  it("rejects unknown flags, missing arguments and extra arguments with the command's usage", async () => {
    const home = newHome();
    const cases: [string[], RegExp][] = [
      [["list", "--user", "a", "--colour"], /unknown flag --colour for `lucid list`/],
      [["search"], /missing <query>/],
      [["search", "--limit"], /--limit needs a value/],
      [["get", "a", "b"], /unexpected argument "b"/],
      [["status", "extra"], /unexpected argument "extra" \(it takes no arguments\)/],
      [["list", "--page", "0.5", "--user", "a"], /--page must be a whole number/],
      [["add", "x", "--metadata", "not json", "--user", "a"], /--metadata is not valid JSON/],
    ];
    for (const [args, message] of cases) {
      const { code, stderr } = await runCli(args, { home });
      expect(code, args.join(" ")).toBe(2);
      expect(stderr).toMatch(message);
      expect(stderr).toMatch(/^usage: lucid \S+/m);
    }
  });

  it("reports usage errors as JSON with --json", async () => {
    const { code, json, stderr } = await runJson(["frobnicate"]);
    expect(code).toBe(2);
    expect(stderr).toBe("");
    expect(json).toEqual({
      ok: false,
      error: { code: "USAGE", message: expect.stringContaining("frobnicate") },
    });
  });
});

describe("errors", () => {
  it("prints error[CODE], a hint, and a stack trace only with --debug", async () => {
    const home = newHome();
    const plain = await runCli(["search", "anything"], { home });
    expect(plain.code).toBe(1);
    expect(plain.stdout).toBe("");
    expect(plain.stderr).toMatch(/^error\[SCOPE_REQUIRED\]: .+\nhint: pass --user/);
    expect(plain.stderr).not.toMatch(/\n\s+at /);

    const debug = await runCli(["search", "anything", "--debug"], { home });
    expect(debug.stderr).toMatch(/\n\s+at .*\.js:\d+/);

    const json = await runJson(["search", "anything"], { home });
    expect(json.json).toEqual({ ok: false, error: { code: "SCOPE_REQUIRED", message: expect.any(String) } });
  });
});

describe("colour", () => {
  const listArgs = (home: string) => ["list", "--user", "pat", "--home", home];

  it("never colours a pipe by default, and honours FORCE_COLOR, NO_COLOR and --no-color", async () => {
    const home = newHome();
    await runCli(["add", "Pat collects stamps", "--user", "pat", "--pinned"], { home });
    expect((await runCli(listArgs(home))).stdout).not.toMatch(ANSI);
    expect((await runCli(listArgs(home), { env: { FORCE_COLOR: "1" } })).stdout).toMatch(ANSI);
    expect((await runCli(listArgs(home), { env: { FORCE_COLOR: "1", NO_COLOR: "1" } })).stdout).not.toMatch(
      ANSI,
    );
    expect(
      (await runCli([...listArgs(home), "--no-color"], { env: { FORCE_COLOR: "1" } })).stdout,
    ).not.toMatch(ANSI);
    expect((await runCli([...listArgs(home), "--color"])).stdout).toMatch(ANSI);
    const error = await runCli(["get", "missing", "--home", home], { env: { FORCE_COLOR: "1" } });
    expect(error.stderr).toMatch(ANSI);
    expect((await runCli(["get", "missing", "--home", home], { env: { NO_COLOR: "1" } })).stderr).not.toMatch(
      ANSI,
    );
  });

  const hasScript = existsSync("/usr/bin/script");
  it.skipIf(!hasScript)("colours a real terminal unless NO_COLOR is set", async () => {
    const home = newHome();
    await runCli(["add", "Pat collects stamps", "--user", "pat"], { home });
    const inTerminal = async (env: Record<string, string>) => {
      const command = [process.execPath, BIN, ...listArgs(home)].map((part) => `'${part}'`).join(" ");
      const { stdout } = await promisify(execFile)("script", ["-qec", command, "/dev/null"], {
        env: { PATH: process.env.PATH ?? "", TERM: "xterm", ...env },
      });
      return stdout;
    };
    const coloured = await inTerminal({});
    expect(coloured).toContain("Pat collects stamps");
    expect(coloured).toMatch(ANSI);
    expect(await inTerminal({ NO_COLOR: "1" })).not.toMatch(ANSI);
  });
});
