/**
 * Run ids: the kind, the UTC time to the second and four random hex digits
 * (`dream-20261130T030000-9f2c`), so runs sort by time in a listing and read at a glance.
 *
 * @module
 */

import { randomBytes } from "node:crypto";

export function newRunId(kind: string, now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d+Z$/, "");
  return `${kind}-${stamp}-${randomBytes(2).toString("hex")}`;
}
