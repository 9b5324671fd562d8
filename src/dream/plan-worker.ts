/**
 * The worker that plans a dream off the main thread (`plan-off-thread.ts`): it receives a snapshot's
 * rows and packed vectors and the policy, runs the analysers, and posts the plan back.
 *
 * @module
 */

import { parentPort, workerData } from "node:worker_threads";
import type { Policy } from "../policy/policy.js";
import { packedSnapshot } from "./build-snapshot.js";
import type { SnapshotData } from "./load-snapshot.js";
import { planDream } from "./plan-dream.js";

const { data, policy } = workerData as { data: SnapshotData; policy: Policy };
const started = performance.now();
try {
  const plan = planDream(packedSnapshot(data), policy, { startedAt: started });
  parentPort?.postMessage({ ok: true, plan });
} catch (error) {
  parentPort?.postMessage({ ok: false, message: (error as Error).message, stack: (error as Error).stack });
}
