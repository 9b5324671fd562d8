/**
 * API keys of the REST API: `keys.json` in the Lucid home (mode 0600), holding for each key only
 * its SHA-256 hash, an id to revoke it by, and the scope it is bound to. The key itself is shown
 * once, when it is created, and never stored.
 *
 * @module
 */

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { chmod, mkdir, open, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { hasScope, SCOPE_KEYS, type Scope, scopeValue } from "../core/scope.js";
import { LucidError } from "../errors.js";

export const KEYS_FILE_NAME = "keys.json";

/** The key prefix says what the secret is for, so a leaked one is recognised (and scanners find it). */
const KEY_PREFIX = "lucid_";

export interface ApiKeyRecord {
  /** `key_` and 8 hex digits: what `lucid keys list` shows and `lucid keys revoke` takes. */
  readonly id: string;
  /** Hex SHA-256 of the key. */
  readonly hash: string;
  /** Every request made with the key acts inside this scope. */
  readonly scope: Scope;
  readonly createdAt: string;
}

/** Where a home keeps its keys. */
export function keysFileOf(home: string): string {
  return join(home, KEYS_FILE_NAME);
}

function hashKey(key: string): string {
  return createHash("sha256").update(key, "utf8").digest("hex");
}

/** The keys in `file`; none when it does not exist. */
export async function readKeys(file: string): Promise<ApiKeyRecord[]> {
  let text: string;
  try {
    text = await readFile(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return [];
    throw error;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw corrupt(file, `is not JSON (${(error as Error).message})`, error);
  }
  const keys = (parsed as { keys?: unknown } | null)?.keys;
  if (!Array.isArray(keys)) throw corrupt(file, 'has no "keys" array');
  return keys.map((entry, index) => parseRecord(file, entry, index));
}

function parseRecord(file: string, entry: unknown, index: number): ApiKeyRecord {
  const record = entry as Partial<Record<keyof ApiKeyRecord, unknown>> | null;
  const scope = record?.scope as Record<string, unknown> | undefined;
  if (
    typeof record?.id !== "string" ||
    typeof record.hash !== "string" ||
    !/^[0-9a-f]{64}$/.test(record.hash) ||
    typeof record.createdAt !== "string" ||
    typeof scope !== "object" ||
    scope === null
  ) {
    throw corrupt(file, `keys[${index}] is not a key record (id, hash, scope, createdAt)`);
  }
  const bound: Scope = {};
  for (const key of SCOPE_KEYS) {
    const given = scope[key];
    if (given === undefined || given === null) continue;
    // A bad record is a bad file, not a bad request: scopeValue's input error would reach every caller.
    if (typeof given !== "string" || !isScopeValue(key, given)) {
      throw corrupt(file, `keys[${index}].scope.${key} is not a non-empty id without whitespace`);
    }
    bound[key] = given.trim();
  }
  if (!hasScope(bound)) throw corrupt(file, `keys[${index}] is bound to no scope`);
  return { id: record.id, hash: record.hash, scope: bound, createdAt: record.createdAt };
}

function isScopeValue(key: (typeof SCOPE_KEYS)[number], value: string): boolean {
  try {
    return scopeValue(key, value) !== undefined;
  } catch {
    return false;
  }
}

function corrupt(file: string, problem: string, cause?: unknown): LucidError {
  return new LucidError(
    "INVALID_CONFIG",
    `${file} ${problem}. Fix it by hand, or remove it and create the keys again with \`lucid keys create --user <id>\`.`,
    { cause, details: { file } },
  );
}

/** Written to a temporary file and renamed over the old one, so a crash never leaves half a file. */
async function writeKeys(file: string, keys: readonly ApiKeyRecord[]): Promise<void> {
  await mkdir(dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify({ keys }, null, 2)}\n`, { mode: 0o600 });
  await chmod(temporary, 0o600);
  await rename(temporary, file);
}

/** How long `lucid keys create` and `revoke` wait for another one to finish with the file. */
const LOCK_WAIT_MS = 5_000;

/**
 * Runs `update` holding `<file>.lock`, created exclusively (`wx`), so that two `lucid keys` at once
 * cannot each read the old file and the second rename drop the first one's key. A waiter retries
 * with a short, growing backoff; after LOCK_WAIT_MS it gives up, naming the lock file.
 */
async function withKeysLock<T>(file: string, update: () => Promise<T>): Promise<T> {
  await mkdir(dirname(file), { recursive: true });
  const lock = `${file}.lock`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  let backoff = 5;
  for (;;) {
    try {
      await (await open(lock, "wx", 0o600)).close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      if (Date.now() >= deadline) {
        throw new LucidError(
          "IO_ERROR",
          `${lock} has been held for ${LOCK_WAIT_MS / 1000} s: another \`lucid keys\` is changing ${file}. ` +
            "Try again; if none is running (one was killed), remove the lock file.",
          { cause: error, details: { file: lock } },
        );
      }
      await sleep(backoff + Math.random() * backoff);
      backoff = Math.min(backoff * 2, 100);
    }
  }
  try {
    return await update();
  } finally {
    await rm(lock, { force: true });
  }
}

/**
 * A new key bound to `scope`: the record is stored, the key returned (the only time it is seen).
 *
 * @example
 * const { key, record } = await createKey(keysFileOf(home), { user_id: "alice" });
 */
export async function createKey(
  file: string,
  scope: Scope,
  now: Date = new Date(),
): Promise<{ key: string; record: ApiKeyRecord }> {
  if (!hasScope(scope)) {
    throw new LucidError(
      "SCOPE_REQUIRED",
      "A key must be bound to a scope: pass --user (and optionally --agent, --app), e.g. `lucid keys create --user alice`.",
    );
  }
  return withKeysLock(file, async () => {
    const keys = await readKeys(file);
    const key = `${KEY_PREFIX}${randomBytes(32).toString("base64url")}`;
    let id: string;
    do id = `key_${randomBytes(4).toString("hex")}`;
    while (keys.some((existing) => existing.id === id));
    const record: ApiKeyRecord = {
      id,
      hash: hashKey(key),
      scope: { ...scope },
      createdAt: now.toISOString(),
    };
    await writeKeys(file, [...keys, record]);
    return { key, record };
  });
}

/** Removes the key with this id; an unknown id is `INVALID_ARGUMENT` naming the ids there are. */
export async function revokeKey(file: string, id: string): Promise<ApiKeyRecord> {
  return withKeysLock(file, async () => {
    const keys = await readKeys(file);
    const record = keys.find((existing) => existing.id === id);
    if (record === undefined) {
      const known = keys.map((existing) => existing.id).join(", ") || "none";
      throw new LucidError(
        "INVALID_ARGUMENT",
        `No API key has the id ${JSON.stringify(id)} (keys: ${known}). See \`lucid keys list\`.`,
        { details: { id } },
      );
    }
    await writeKeys(
      file,
      keys.filter((existing) => existing !== record),
    );
    return record;
  });
}

/** The record of the key a request carried, or undefined. Every hash is compared in constant time. */
export function matchKey(keys: readonly ApiKeyRecord[], key: string): ApiKeyRecord | undefined {
  const given = Buffer.from(hashKey(key), "hex");
  let found: ApiKeyRecord | undefined;
  for (const record of keys) {
    if (timingSafeEqual(given, Buffer.from(record.hash, "hex"))) found ??= record;
  }
  return found;
}

/**
 * The keys of `file`, read again whenever the file changes (so `lucid keys create` and `revoke`
 * take effect on a running server without a restart).
 */
export function watchKeys(file: string): () => Promise<readonly ApiKeyRecord[]> {
  let cached: { stamp: string; keys: readonly ApiKeyRecord[] } | undefined;
  return async () => {
    const stamp = await stat(file).then(
      (stats) => `${stats.mtimeMs}:${stats.size}:${stats.ino}`,
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return "missing";
        throw error;
      },
    );
    if (cached?.stamp !== stamp) cached = { stamp, keys: stamp === "missing" ? [] : await readKeys(file) };
    return cached.keys;
  };
}
