/**
 * `scan`: audit what is already stored for credentials (memories written before redaction was on,
 * or under `onAdd: "allow"`), and for memories that read as instructions to the agent (possible
 * injections: the injection judge, `injection/judge-injection.ts`). Reports where each secret is
 * and a masked preview, never the value; for a possible injection, the judge's score and the words
 * it rested on. Nothing is changed: a person (or a dream's review) decides.
 *
 * @module
 */

import type { MemoryContext } from "../core/context.js";
import { secretsGuardOf } from "../core/secrets-guard.js";
import type { Filters } from "../filters/filter.js";
import { cueWords, judgeInjection } from "../injection/judge-injection.js";
import { exportMemories } from "./export.js";

export interface ScanFinding {
  readonly id: string;
  /** Where in the memory: `text`, or a metadata value's path (`metadata.note`, `metadata.tags[1]`). */
  readonly field: string;
  readonly kind: string;
  readonly ruleId: string;
  readonly start: number;
  readonly end: number;
  /** The first 4 characters of the secret, then `…`. */
  readonly preview: string;
  readonly user_id?: string;
  readonly agent_id?: string;
  readonly app_id?: string;
  readonly run_id?: string;
}

/** A memory whose text reads as an instruction to the agent. */
export interface ScanInjection {
  readonly id: string;
  /** The judge's probability, in [0, 1]. */
  readonly score: number;
  /** The words each cue family matched (credentials masked, as every reply is). */
  readonly cues: readonly string[];
  readonly user_id?: string;
  readonly agent_id?: string;
  readonly app_id?: string;
  readonly run_id?: string;
}

export interface ScanResult {
  readonly scanned: number;
  readonly findings: readonly ScanFinding[];
  readonly injections: readonly ScanInjection[];
}

export async function scanMemories(
  context: MemoryContext,
  options: { filters?: Filters } = {},
): Promise<ScanResult> {
  const findings: ScanFinding[] = [];
  const injections: ScanInjection[] = [];
  let scanned = 0;
  const { scanner } = secretsGuardOf(context);
  for await (const record of exportMemories(context, options)) {
    scanned++;
    const scope = {
      ...(record.user_id === undefined ? {} : { user_id: record.user_id }),
      ...(record.agent_id === undefined ? {} : { agent_id: record.agent_id }),
      ...(record.app_id === undefined ? {} : { app_id: record.app_id }),
      ...(record.run_id === undefined ? {} : { run_id: record.run_id }),
    };
    const verdict = judgeInjection(record.text);
    if (verdict.injection)
      injections.push({ id: record.id, score: verdict.score, cues: cueWords(verdict), ...scope });
    for (const { field, value } of textsOf(record.text, record.metadata)) {
      for (const finding of scanner.find(value)) {
        findings.push({
          id: record.id,
          field,
          kind: finding.kind,
          ruleId: finding.ruleId,
          start: finding.start,
          end: finding.end,
          preview: `${value.slice(finding.start, Math.min(finding.start + 4, finding.end))}…`,
          ...scope,
        });
      }
    }
  }
  return { scanned, findings, injections };
}

/** The memory's text and every string in its metadata, each with where it is. */
function* textsOf(text: string, metadata: unknown): Generator<{ field: string; value: string }> {
  yield { field: "text", value: text };
  const walk = function* (value: unknown, path: string): Generator<{ field: string; value: string }> {
    if (typeof value === "string") yield { field: path, value };
    else if (Array.isArray(value))
      for (const [index, item] of value.entries()) yield* walk(item, `${path}[${index}]`);
    else if (typeof value === "object" && value !== null)
      for (const [key, item] of Object.entries(value)) yield* walk(item, `${path}.${key}`);
  };
  yield* walk(metadata, "metadata");
}
