/**
 * A printable view of a loaded config: values that came from an env reference are shown as the
 * reference (`{ "env": "NAME" }`), secrets written literally are masked, and so is a password inside
 * any URL (`postgres://user:***@host/db`), so `lucid config` and `lucid status` can show everything else.
 *
 * @module
 */

import { isSecretKey, type LucidConfig } from "./config-schema.js";
import { isEnvRef } from "./resolve-env-refs.js";

export const MASK = "********";

/** What replaces a password or a secret query parameter inside a URL (the store's `status` line's mask). */
const URL_MASK = "***";

/**
 * Query parameters that carry a credential: libpq's `password`, `sslpassword`, `sslkey`, and the
 * `key` / `api_key` / `token` / `sig` of HTTP APIs that take one in the URL.
 */
const SECRET_PARAMETER = /pass|secret|token|key|auth|sig|credential/i;

/** `config` with secrets masked; `raw` is the file as parsed, before env references were resolved. */
export function redactConfig(config: LucidConfig, raw: unknown): Record<string, unknown> {
  return redact(config, raw, []) as Record<string, unknown>;
}

function redact(value: unknown, raw: unknown, path: readonly string[]): unknown {
  if (isEnvRef(raw)) return { env: raw.env };
  if (typeof value === "string") {
    if (!isSecretKey(path)) return redactUrl(value) ?? value;
    // A connection URL (`store.url`) is a secret for its password; the rest of it says where the
    // store is. Any other secret, or a URL that does not parse, is masked whole.
    return isUrlKey(path) ? (redactUrl(value, { always: true }) ?? MASK) : MASK;
  }
  if (Array.isArray(value)) {
    const rawArray = Array.isArray(raw) ? raw : [];
    return value.map((item, index) => redact(item, rawArray[index], [...path, String(index)]));
  }
  if (typeof value !== "object" || value === null) return value;
  const rawObject = typeof raw === "object" && raw !== null ? (raw as Record<string, unknown>) : {};
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value)) copy[key] = redact(item, rawObject[key], [...path, key]);
  return copy;
}

/** `url`, `baseURL`: keys that hold a URL, where a password is the secret part. */
function isUrlKey(path: readonly string[]): boolean {
  return /url$/i.test(path.at(-1) ?? "");
}

/**
 * `value` with the URL's password and secret query parameters masked; undefined when it is no URL
 * with a host or (unless `always`) has nothing to mask, so other strings print as written.
 */
function redactUrl(value: string, options: { always?: boolean } = {}): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  if (url.host === "") return undefined;
  let masked = false;
  if (url.password !== "") {
    url.password = URL_MASK;
    masked = true;
  }
  for (const name of [...new Set(url.searchParams.keys())]) {
    if (SECRET_PARAMETER.test(name)) {
      url.searchParams.set(name, URL_MASK);
      masked = true;
    }
  }
  if (masked) return url.toString();
  return options.always === true ? value : undefined;
}
