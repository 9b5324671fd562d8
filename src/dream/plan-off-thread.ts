/**
 * Planning off the main thread. The analysers are synchronous and a large scope takes seconds: in a
 * server (the MCP server, later the HTTP API) that would stall every other request and let idle HTTP
 * connections (an embedding server's keep-alive) time out under it. A scope from `OFF_THREAD_FROM`
 * memories up is planned in a worker thread; its vectors are transferred, not copied.
 *
 * @module
 */

import { Worker } from "node:worker_threads";
import { LucidError } from "../errors.js";
import type { Policy } from "../policy/policy.js";
import type { SnapshotData } from "./load-snapshot.js";
import type { DreamPlan } from "./plan.js";

/** Below this, a plan takes well under a tenth of a second: starting a worker would cost more. */
export const OFF_THREAD_FROM = 500;

/**
 * When Lucid runs from its TypeScript sources (its own tests, `tsx`), the worker is a `.ts` file
 * too, loaded through tsx; the published package runs the built `.js`.
 */
const fromSources = import.meta.url.endsWith(".ts");
const WORKER = new URL(fromSources ? "./plan-worker.ts" : "./plan-worker.js", import.meta.url);

/**
 * @example
 * const plan = await planOffThread(await loadSnapshotData(store, { scope, now }), policy);
 */
export function planOffThread(data: SnapshotData, policy: Policy): Promise<DreamPlan> {
  return new Promise((resolve, reject) => {
    const options = { workerData: { data, policy }, transferList: [data.set.data.buffer as ArrayBuffer] };
    const worker = fromSources
      ? new Worker(
          `import("tsx/esm/api").then(({ register }) => { register(); return import(${JSON.stringify(WORKER.href)}); })`,
          { ...options, eval: true },
        )
      : new Worker(WORKER, options);
    let settled = false;
    worker.once("message", (reply: { ok: true; plan: DreamPlan } | { ok: false; message: string }) => {
      settled = true;
      if (reply.ok) resolve(reply.plan);
      else reject(new LucidError("INTERNAL", `Planning failed in its worker: ${reply.message}`));
    });
    worker.once("error", (error) => {
      settled = true;
      reject(new LucidError("INTERNAL", `The planning worker failed: ${error.message}`, { cause: error }));
    });
    worker.once("exit", (code) => {
      if (!settled)
        reject(new LucidError("INTERNAL", `The planning worker exited with code ${code} before answering.`));
    });
  });
}
