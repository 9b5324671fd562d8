/**
 * What `lucid mcp` reads at the edge, once: whether auto-dream is on (`LUCID_DREAM`), the gate's
 * thresholds and the HTTP token (from `lucid.config.json`).
 *
 * @module
 */

import type { LucidConfig } from "../config/config-schema.js";
import type { AutoDreamOptions } from "./auto-dream.js";

/** Values of `LUCID_DREAM` that switch automatic dreaming off. */
const OFF = new Set(["off", "false", "0", "no"]);

/**
 * False when `LUCID_DREAM` is `off`, `false`, `0` or `no` (any case).
 *
 * @example
 * autoDreamEnabled({ LUCID_DREAM: "off" }); // false
 */
export function autoDreamEnabled(env: Readonly<Record<string, string | undefined>>): boolean {
  return !OFF.has((env.LUCID_DREAM ?? "").trim().toLowerCase());
}

export interface McpSettings {
  /** Bearer token every HTTP request must carry; required to bind a non-loopback address. */
  readonly token: string | undefined;
  readonly autoDream: AutoDreamOptions;
}

/**
 * @example
 * const settings = resolveMcpSettings(loaded.config, process.env);
 */
export function resolveMcpSettings(
  config: LucidConfig,
  env: Readonly<Record<string, string | undefined>>,
): McpSettings {
  const thresholds = config.dream?.gate;
  return {
    token: config.mcp?.token,
    autoDream: { enabled: autoDreamEnabled(env), ...(thresholds === undefined ? {} : { thresholds }) },
  };
}
