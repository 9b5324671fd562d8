/**
 * Refusals of the transport itself, before a request reaches the library: no or a wrong key (401),
 * a client or page not served (403), a body over the limit (413), too many requests (429). Library
 * failures are `LucidError`s and get their status from their kind (`reply-error.ts`).
 *
 * @module
 */

export const REFUSAL_CODES = ["UNAUTHORIZED", "FORBIDDEN", "BODY_TOO_LARGE", "RATE_LIMITED"] as const;
export type RefusalCode = (typeof REFUSAL_CODES)[number];

const STATUS: Readonly<Record<RefusalCode, 401 | 403 | 413 | 429>> = {
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  BODY_TOO_LARGE: 413,
  RATE_LIMITED: 429,
};

export class HttpRefusal extends Error {
  readonly status: 401 | 403 | 413 | 429;

  constructor(
    readonly code: RefusalCode,
    message: string,
    readonly headers: Readonly<Record<string, string>> = {},
  ) {
    super(message);
    this.name = "HttpRefusal";
    this.status = STATUS[code];
  }
}
