import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { createFakeSecrets } from "../fixtures/secrets/fake-secrets.js";
import { ANSI, runCli, runJson, tempHomes } from "./run-cli.js";

const newHome = tempHomes();
const fake = createFakeSecrets(11);
const token = fake["github-pat"]?.() ?? "";

function writeConfig(home: string, config: unknown): void {
  mkdirSync(home, { recursive: true });
  writeFileSync(join(home, "lucid.config.json"), JSON.stringify(config));
}

describe("secrets from the command line", () => {
  it("redacts on add by default and reports the kind, never the value", async () => {
    const home = newHome();
    const added = await runJson(["add", `CI uses ${token} for releases`, "--user", "alice"], { home });
    expect(added.json).toMatchObject({
      ok: true,
      results: [{ memory: "CI uses [REDACTED:github-pat] for releases" }],
    });
    expect(added.stdout).not.toContain(token);
    const scan = await runJson(["scan"], { home });
    expect(scan.code).toBe(0);
    expect(scan.json).toEqual({ ok: true, scanned: 1, findings: [], injections: [] });
  });

  it("rejects under policy.secrets.onAdd reject with exit 1 and the error code", async () => {
    const home = newHome();
    writeConfig(home, { policy: { secrets: { onAdd: "reject" } } });
    const result = await runCli(["add", `token ${token}`, "--user", "alice"], { home });
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("SECRET_REJECTED");
    expect(result.stderr + result.stdout).not.toContain(token);
  });

  it("audits a store: each finding with id, kind and a masked preview; exit 1 when any is found", async () => {
    const home = newHome();
    writeConfig(home, { policy: { secrets: { onAdd: "allow" } } });
    const leaked = await runJson(["add", `deploy key ${token} here`, "--user", "alice"], { home });
    const id = (leaked.json.results as { id: string }[])[0]?.id;
    await runJson(["add", "The Stripe key lives in 1Password", "--user", "bob"], { home });

    const scan = await runJson(["scan"], { home });
    expect(scan.code).toBe(1);
    expect(scan.json).toMatchObject({
      ok: false,
      scanned: 2,
      findings: [{ id, kind: "github-pat", preview: `${token.slice(0, 4)}…`, user_id: "alice" }],
      error: { code: "SECRETS_FOUND" },
    });
    expect(scan.stdout).not.toContain(token);

    const human = await runCli(["scan"], { home, env: { NO_COLOR: "1" } });
    expect(human.code).toBe(1);
    expect(human.stdout).toContain("github-pat");
    expect(human.stdout).toContain("ghp_…");
    expect(human.stdout).not.toMatch(ANSI);
    expect(human.stdout).not.toContain(token);

    const bob = await runJson(["scan", "--user", "bob"], { home });
    expect(bob.code).toBe(0);
    expect(bob.json).toMatchObject({ ok: true, scanned: 1, findings: [] });
  });

  it("refuses a bad secrets policy in the config", async () => {
    const home = newHome();
    writeConfig(home, { policy: { secrets: { onAdd: "maybe" } } });
    const result = await runJson(["add", "x", "--user", "alice"], { home });
    expect(result.code).toBe(1);
    expect(result.json).toMatchObject({ ok: false, error: { code: "INVALID_CONFIG" } });
  });
});
