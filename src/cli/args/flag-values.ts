/**
 * Flag values checked at the edge: a number that is not a number, or JSON that does not parse, is
 * a usage error (exit 2). Ranges (a threshold above 1…) are the library's to check.
 *
 * @module
 */

import { isLucidError } from "../../errors.js";
import { expiryInstant } from "../../text/expiry-date.js";
import { UsageError } from "../usage-error.js";

export function integerFlag(value: string | undefined, flag: string, command: string): number | undefined {
  if (value === undefined) return undefined;
  if (!/^\d+$/.test(value.trim())) {
    throw new UsageError(`--${flag} must be a whole number, got ${JSON.stringify(value)}.`, command);
  }
  return Number(value);
}

export function numberFlag(value: string | undefined, flag: string, command: string): number | undefined {
  if (value === undefined) return undefined;
  const number = Number(value);
  if (value.trim() === "" || !Number.isFinite(number)) {
    throw new UsageError(`--${flag} must be a number, got ${JSON.stringify(value)}.`, command);
  }
  return number;
}

export function choiceFlag<T extends string>(
  value: string | undefined,
  flag: string,
  choices: readonly T[],
  command: string,
): T | undefined {
  if (value === undefined) return undefined;
  if (!(choices as readonly string[]).includes(value)) {
    throw new UsageError(
      `--${flag} must be one of ${choices.join(", ")}, got ${JSON.stringify(value)}.`,
      command,
    );
  }
  return value as T;
}

/** A JSON object given on the command line (`--filters`, `--metadata`). */
export function jsonObjectFlag(
  value: string | undefined,
  flag: string,
  command: string,
): Record<string, unknown> | undefined {
  if (value === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch (error) {
    throw new UsageError(
      `--${flag} is not valid JSON (${(error as Error).message}); e.g. --${flag} '{"category":"rule"}'.`,
      command,
    );
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(`--${flag} must be a JSON object, e.g. --${flag} '{"category":"rule"}'.`, command);
  }
  return parsed as Record<string, unknown>;
}

/**
 * `--expires`: a calendar day or a timestamp with its offset, as the library reads an expiry date;
 * anything else (`tomorrow`, `12/31/2099`) is a usage error. Returns the value and the instant from
 * which the memory is hidden (in `timeZone`).
 */
export function expiresFlag(
  value: string | undefined,
  command: string,
  timeZone?: string,
): { value: string; hiddenFrom: string } | undefined {
  if (value === undefined) return undefined;
  try {
    return { value, hiddenFrom: expiryInstant(value, "--expires", timeZone) };
  } catch (error) {
    if (!isLucidError(error)) throw error;
    throw new UsageError(
      `--expires must be a day such as 2099-12-31 (visible through that day) or a time with its offset such as 2099-12-31T18:00:00Z, got ${JSON.stringify(value)}.`,
      command,
    );
  }
}
