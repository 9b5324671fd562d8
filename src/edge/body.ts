/**
 * Reading a request body as JSON with a size limit, for every HTTP edge: too large or not JSON is a
 * value the caller turns into its own error reply, never a throw.
 *
 * @module
 */

import type { IncomingMessage } from "node:http";

/** 4 MiB: room for a large batch of memories or a dream plan, not for a runaway client. */
export const DEFAULT_MAX_BODY_BYTES = 4 * 1024 * 1024;

export type BodyResult =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly reason: "too_large" | "not_json"; readonly message: string };

/** The body as text, or null when it is over `maxBytes` (reading stops there). */
export async function readTextBody(
  request: IncomingMessage,
  maxBytes = DEFAULT_MAX_BODY_BYTES,
): Promise<string | null> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request) {
    size += (chunk as Buffer).length;
    if (size > maxBytes) return null;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * @example
 * const body = await readJsonBody(request);
 * if (!body.ok) return reply(body.reason === "too_large" ? 413 : 400, body.message);
 */
export async function readJsonBody(
  request: IncomingMessage,
  maxBytes = DEFAULT_MAX_BODY_BYTES,
): Promise<BodyResult> {
  const text = await readTextBody(request, maxBytes);
  if (text === null) {
    return { ok: false, reason: "too_large", message: `Request body over ${maxBytes} bytes.` };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (error) {
    return {
      ok: false,
      reason: "not_json",
      message: `Parse error: the body is not JSON (${(error as Error).message}).`,
    };
  }
}
