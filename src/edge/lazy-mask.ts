/**
 * A server's output mask, made on first use from the store's policy (a server starts before its
 * store opens). Servers always mask: a model's context or a browser tab is no place for a
 * credential stored under `secrets.onAdd: "allow"`.
 *
 * @module
 */

import type { MemoryContext } from "../core/context.js";
import { secretsGuardOf } from "../core/secrets-guard.js";
import { createOutputMask, type OutputMask } from "./output-mask.js";

/** `shown(value)`: `value` with every detected credential in its stored content masked. */
export function createLazyMask(ready: () => Promise<MemoryContext>): <T>(value: T) => Promise<T> {
  let mask: Promise<OutputMask> | undefined;
  return async <T>(value: T): Promise<T> => {
    mask ??= ready().then((context) => createOutputMask(secretsGuardOf(context).scanner));
    try {
      return (await mask).shown(value);
    } catch (error) {
      mask = undefined; // a store that failed to open is opened again by the next call; so is the mask
      throw error;
    }
  };
}
