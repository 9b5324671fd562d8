/**
 * A memory id argument as a person types it: the full id, or its first 8 characters or more
 * (`lucid get 0b6e2f1a`), resolved by the store.
 *
 * @module
 */

import type { CommandContext, FlagsDef } from "../command.js";

export async function memoryIdArg(context: CommandContext<FlagsDef>, given: string): Promise<string> {
  return (await context.memory()).resolveId(given);
}
