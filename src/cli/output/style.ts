/**
 * Colours, only where they help and only where wanted: on a TTY, never with `NO_COLOR` or
 * `--no-color`, always with `FORCE_COLOR` (not "0") or `--color`. Plain SGR codes rather than
 * `util.styleText`, which Node 20 only has from 20.12.
 *
 * @module
 */

import { stripVTControlCharacters } from "node:util";

const CODES = {
  bold: [1, 22],
  dim: [2, 22],
  red: [31, 39],
  green: [32, 39],
  yellow: [33, 39],
  cyan: [36, 39],
} as const;

export type StyleName = keyof typeof CODES;
export type Style = Record<StyleName, (text: string) => string> & { readonly enabled: boolean };

export function createStyle(enabled: boolean): Style {
  const entries = Object.entries(CODES).map(([name, [open, close]]) => [
    name,
    enabled
      ? (text: string) => (text === "" ? text : `\x1b[${open}m${text}\x1b[${close}m`)
      : (text: string) => text,
  ]);
  return { ...(Object.fromEntries(entries) as Record<StyleName, (text: string) => string>), enabled };
}

export interface ColorChoice {
  /** `--color` (true), `--no-color` (false), or neither. */
  flag: boolean | undefined;
  env: Readonly<Record<string, string | undefined>>;
  isTTY: boolean | undefined;
}

export function colorEnabled({ flag, env, isTTY }: ColorChoice): boolean {
  if (flag !== undefined) return flag;
  if (env.NO_COLOR !== undefined && env.NO_COLOR !== "") return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== "0" && env.FORCE_COLOR !== "false";
  return isTTY === true && env.TERM !== "dumb";
}

/** Length as displayed: without colour codes. */
export function visibleLength(text: string): number {
  return [...stripVTControlCharacters(text)].length;
}
