/**
 * Noise: memories that state no fact — acknowledgements, greetings, reported chatter, lone
 * words, bare timestamps, heartbeat and cron run records, health probes, and raw tool output
 * (JSON, pages of markup, stack traces, test-runner and build output, tables a tool printed, tool-call traces,
 * shell and log output, single lines a program wrote, any text most of whose lines a tool printed). Each is deleted with reason `noise`; `why.rule` names which kind it was.
 *
 * @module
 */

import type { Analyser } from "../analyser.js";
import type { DeleteAction } from "../plan.js";
import { chatter } from "./noise/chatter.js";
import { machineLine } from "./noise/machine-lines.js";
import type { NoiseMatch, NoiseRule } from "./noise/noise-rule.js";
import { buildOutput, tableOutput, testReport, toolTrace } from "./noise/run-output.js";
import { bareTimestamp, cronRecord, healthProbe, heartbeat } from "./noise/run-records.js";
import { jsonBlob, logOutput, markupPage, shellOutput, stackTrace } from "./noise/tool-output.js";
import { toolText } from "./noise/tool-text.js";

/** Cheapest and most certain first; the first rule that matches names the noise. */
const RULES: readonly NoiseRule[] = [
  healthProbe,
  heartbeat,
  chatter,
  jsonBlob,
  markupPage,
  stackTrace,
  bareTimestamp,
  testReport,
  buildOutput,
  tableOutput,
  toolTrace,
  logOutput,
  shellOutput,
  cronRecord,
  machineLine,
  toolText,
];

/**
 * @example
 * analyseNoise(snapshot, policy);
 * // => [{ kind: "delete", ids: ["m7"], reason: "noise", why: { rule: "acknowledgement", detail: 'acknowledgement: "ok thanks"' } }]
 */
export const analyseNoise: Analyser = (snapshot) => {
  const actions: DeleteAction[] = [];
  for (const memory of snapshot.memories) {
    const match = noiseOf(memory.text, memory.metadata);
    if (match !== undefined) actions.push({ kind: "delete", ids: [memory.id], reason: "noise", why: match });
  }
  return actions;
};

/**
 * Why a text states no fact (the first noise rule it matches), or undefined: what dream deletes as
 * noise, and what an agent-facing add (MCP `memory_add`) refuses to store in the first place.
 *
 * @example
 * noiseOf("ok thanks")?.rule; // => "acknowledgement"
 * noiseOf("User prefers pnpm"); // => undefined
 */
export function noiseOf(
  text: string,
  metadata: Readonly<Record<string, unknown>> = {},
): NoiseMatch | undefined {
  for (const rule of RULES) {
    const match = rule(text, metadata);
    if (match !== undefined) return match;
  }
  return undefined;
}
