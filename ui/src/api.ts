/**
 * The one way the UI calls the server: same origin, JSON in and out, the API key (when the server
 * asked for one) as `Authorization: Token <key>`. A failed call throws an {@link ApiError} carrying
 * the server's `detail` and `code`, so the page can show the sentence the server wrote.
 *
 * The key lives in sessionStorage: it survives a reload of the tab and is gone when the tab closes.
 *
 * @module
 */

const KEY_ITEM = "lucid.apiKey";

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly details?: Readonly<Record<string, unknown>>,
  ) {
    super(detail);
  }
}

export function storedKey(): string | null {
  return sessionStorage.getItem(KEY_ITEM);
}

export function storeKey(key: string | null): void {
  if (key === null) sessionStorage.removeItem(KEY_ITEM);
  else sessionStorage.setItem(KEY_ITEM, key);
}

export interface CallOptions {
  readonly method?: "GET" | "POST" | "PUT" | "DELETE";
  readonly body?: unknown;
  /** Query parameters; empty values are left out. */
  readonly query?: Readonly<Record<string, string | number | undefined>>;
}

export async function api<T>(path: string, options: CallOptions = {}): Promise<T> {
  const url = new URL(path, location.origin);
  for (const [name, value] of Object.entries(options.query ?? {})) {
    if (value !== undefined && value !== "") url.searchParams.set(name, String(value));
  }
  const headers: Record<string, string> = { Accept: "application/json" };
  const key = storedKey();
  if (key !== null) headers.Authorization = `Token ${key}`;
  if (options.body !== undefined) headers["Content-Type"] = "application/json";
  let response: Response;
  try {
    response = await fetch(url, {
      method: options.method ?? "GET",
      headers,
      ...(options.body === undefined ? {} : { body: JSON.stringify(options.body) }),
    });
  } catch (error) {
    throw new ApiError(0, "NETWORK", `Could not reach the server: ${String(error)}`);
  }
  const text = await response.text();
  let json: unknown = null;
  try {
    json = text === "" ? null : JSON.parse(text);
  } catch {
    // A body that is not JSON (a proxy's error page): its status says enough.
  }
  if (!response.ok) {
    const body = (json ?? {}) as { detail?: unknown; code?: unknown; details?: Record<string, unknown> };
    throw new ApiError(
      response.status,
      typeof body.code === "string" ? body.code : `HTTP_${response.status}`,
      typeof body.detail === "string" ? body.detail : `${response.status} ${response.statusText}`.trim(),
      body.details,
    );
  }
  return json as T;
}
