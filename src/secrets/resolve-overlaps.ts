/**
 * Several rules may claim the same characters (`token=ghp_…` is a GitHub token and a generic
 * secret; `Bearer eyJ…` is a bearer token and a JWT). One finding per character survives.
 *
 * @module
 */

import type { Finding } from "./types.js";

/** A finding plus the catalogue position of its rule, the last tie-breaker. */
export interface RankedFinding extends Finding {
  readonly order: number;
}

function outranks(a: RankedFinding, b: RankedFinding): number {
  if (a.confidence !== b.confidence) return a.confidence === "high" ? -1 : 1;
  const length = b.end - b.start - (a.end - a.start);
  if (length !== 0) return length;
  if (a.order !== b.order) return a.order - b.order;
  return a.start - b.start;
}

/**
 * Keeps, among overlapping findings, the higher-confidence one, then the longer one, then the
 * one from the earlier (more specific) rule; returns the survivors in text order.
 *
 * @example
 * resolveOverlaps([
 *   { kind: "generic-secret", ruleId: "secret-assignment", start: 6, end: 46, labelStart: 0, confidence: "medium", order: 60 },
 *   { kind: "github-pat", ruleId: "github-pat", start: 6, end: 46, labelStart: 6, confidence: "high", order: 5 },
 * ]).map((finding) => finding.kind); // ["github-pat"]
 */
export function resolveOverlaps(candidates: readonly RankedFinding[]): Finding[] {
  if (candidates.length === 0) return [];
  const kept: RankedFinding[] = [];
  for (const candidate of [...candidates].sort(outranks)) {
    if (kept.every((other) => candidate.end <= other.start || candidate.start >= other.end))
      kept.push(candidate);
  }
  return kept
    .sort((a, b) => a.start - b.start)
    .map(({ kind, ruleId, start, end, labelStart, confidence }) => ({
      kind,
      ruleId,
      start,
      end,
      labelStart,
      confidence,
    }));
}
