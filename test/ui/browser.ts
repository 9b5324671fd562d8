/**
 * The web UI in a real headless Chromium (`/usr/bin/chromium`, driven by playwright-core), against
 * `lucid serve`'s server in this process. Each suite builds the UI first (`node ui/build.mjs`), so
 * it runs on a clean clone.
 *
 * Without Chromium the suites skip, saying how to install it; with `LUCID_REQUIRE_HOSTS=1` (CI) a
 * missing Chromium is an error instead.
 *
 * @module
 */

import { execFile } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { describe, it } from "vitest";
import { hostsRequired } from "../helpers/hosts.js";

export const CHROMIUM = "/usr/bin/chromium";
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const ARTIFACTS = join(ROOT, "test-artifacts", "ui");

/** Per test: a busy two-core machine runs Chromium beside the server. */
export const UI_TEST_TIMEOUT = 120_000;
/** Per Playwright action and expectation. */
const ACTION_TIMEOUT = 30_000;

/** `describe` when Chromium is installed; otherwise a skipped test saying how to install it (or a failure). */
export function describeWithChromium(title: string, body: () => void): void {
  if (existsSync(CHROMIUM)) {
    describe(title, body);
    return;
  }
  const reason = `Chromium is not installed at ${CHROMIUM}: run \`apt-get install chromium\``;
  if (hostsRequired()) throw new Error(`LUCID_REQUIRE_HOSTS=1 but ${reason}`);
  describe(title, () => {
    it(`skipped: ${reason}`, (context) => {
      context.skip(reason);
    });
  });
}

export async function buildUi(): Promise<void> {
  await promisify(execFile)(process.execPath, [join(ROOT, "ui", "build.mjs")], {
    cwd: ROOT,
    timeout: 120_000,
  });
}

export interface UiBrowser {
  readonly context: BrowserContext;
  /** A new tab (its own sessionStorage), with the action timeout set. */
  page(): Promise<Page>;
  close(): Promise<void>;
}

/**
 * Chromium on a fresh profile directory. Playwright takes the profile as `launchPersistentContext`'s
 * first argument (it refuses `--user-data-dir` among the flags).
 */
export async function launchUiBrowser(): Promise<UiBrowser> {
  const profile = mkdtempSync(join(tmpdir(), "lucid-ui-chromium-"));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    timeout: ACTION_TIMEOUT * 2,
    viewport: { width: 1280, height: 800 },
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
  context.setDefaultTimeout(ACTION_TIMEOUT);
  return {
    context,
    page: () => context.newPage(),
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

/** A full-page screenshot in `test-artifacts/ui/<step>.png` (gitignored). */
export async function screenshot(page: Page, step: string): Promise<void> {
  mkdirSync(ARTIFACTS, { recursive: true });
  await page.screenshot({ path: join(ARTIFACTS, `${step}.png`), fullPage: true });
}

/** Chromium logs every 4xx answer; the page shows those itself, and the tests check it does. */
const HTTP_STATUS_LOG = /^Failed to load resource: the server responded with a status of 4\d\d/;

/**
 * Failures the page met that a test would otherwise miss: uncaught errors, console errors (a CSP
 * refusal is one), and requests to anywhere but the server.
 */
export function watchPage(page: Page, origin: string): string[] {
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(`page error: ${error.message}`));
  page.on("console", (message) => {
    if (message.type() === "error" && !HTTP_STATUS_LOG.test(message.text()))
      problems.push(`console error: ${message.text()}`);
  });
  page.on("request", (request) => {
    if (!request.url().startsWith(origin)) problems.push(`request off origin: ${request.url()}`);
  });
  return problems;
}
