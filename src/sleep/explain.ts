/**
 * `lucid sleep explain`: why one recalled range would or would not be promoted — each of the six
 * components with its weight and contribution, the phase boost, every gate with its value and
 * threshold, and what keeps it out when something does.
 *
 * @module
 */

import { LucidError } from "../errors.js";
import {
  type Component,
  type DeepOptions,
  type Gate,
  PROMOTION_WEIGHTS,
  rankForPromotion,
  scoreEntry,
} from "./deep-rank.js";
import { parseNoteAddress } from "./note-range.js";
import type { RecallEntry } from "./recall-entry.js";
import { noteAddress, recallKey } from "./recall-keys.js";

export interface ComponentExplained {
  readonly component: Component;
  readonly value: number;
  readonly weight: number;
  readonly contribution: number;
}

export interface GateExplained extends Gate {
  readonly why: string;
}

export interface Explanation {
  readonly key: string;
  readonly address: string;
  readonly snippet: string;
  readonly score: number;
  readonly components: readonly ComponentExplained[];
  readonly phaseBoost: number;
  readonly gates: readonly GateExplained[];
  /** What keeps it out before any gate. */
  readonly excluded: string | null;
  /** Its place among what would be promoted now, or null. */
  readonly rank: number | null;
  readonly verdict: string;
  readonly promotedAt: string | null;
}

const EXCLUSIONS: Record<string, string> = {
  "not-short-term": "it is not in a dated daily note, and only those are promoted",
  contaminated: "its text is sleep's own output or session metadata, never promoted",
  "possible-injection":
    "its text reads as an instruction to the agent (a possible injection), never made long-term memory",
  promoted: "it was promoted already (rank it again with includePromoted)",
  "no-signals": "it has no recall signals",
};

/**
 * @throws LucidError `NOTE_NOT_FOUND` when the workspace has no recall record for the range.
 * @example
 * explainEntry(entries, "memory/2026-11-04.md#L3-L3", { now: "2026-11-29T03:00:00Z" }).verdict;
 * // => "promotes: rank 1 of 4"
 */
export function explainEntry(
  entries: readonly RecallEntry[],
  target: string,
  options: DeepOptions,
): Explanation {
  const address = parseNoteAddress(target);
  const key =
    address === undefined ? target.trim() : recallKey(address.path, address.startLine, address.endLine);
  const entry = entries.find((each) => each.key === key);
  if (entry === undefined) {
    throw new LucidError(
      "NOTE_NOT_FOUND",
      `No recall record for ${target}. \`lucid sleep signals\` lists the recorded ranges.`,
      { details: { target } },
    );
  }
  const scored = scoreEntry(entry, options);
  const ranked = rankForPromotion(entries, options);
  const place = ranked.findIndex((each) => each.entry.key === key);
  const gates = scored.gates.map((gate) => ({ ...gate, why: gateWhy(gate) }));
  const failing = gates.filter((gate) => !gate.passed);
  const verdict =
    scored.excluded !== undefined
      ? `not a candidate: ${EXCLUSIONS[scored.excluded] ?? scored.excluded}`
      : failing.length > 0
        ? `held back by ${failing.map((gate) => gate.gate).join(", ")}`
        : place >= 0
          ? `promotes: rank ${place + 1} of ${ranked.length}`
          : `passes every gate, but ${options.limit ?? 10} candidates rank above it`;
  return {
    key,
    address: noteAddress(entry.path, entry.startLine, entry.endLine),
    snippet: entry.snippet,
    score: round(scored.score),
    components: (Object.keys(PROMOTION_WEIGHTS) as Component[]).map((component) => ({
      component,
      value: round(scored.components[component]),
      weight: PROMOTION_WEIGHTS[component],
      contribution: round(scored.components[component] * PROMOTION_WEIGHTS[component]),
    })),
    phaseBoost: round(scored.phaseBoost),
    gates,
    excluded: scored.excluded ?? null,
    rank: place >= 0 ? place + 1 : null,
    verdict,
    promotedAt: entry.promotedAt ?? null,
  };
}

function gateWhy(gate: Gate): string {
  const value = Number.isInteger(gate.value) ? String(gate.value) : gate.value.toFixed(3);
  switch (gate.gate) {
    case "minRecallCount":
      return `${value} signal(s) ${gate.passed ? "≥" : "<"} ${gate.threshold} needed`;
    case "minUniqueQueries":
      return `${value} distinct question(s) ${gate.passed ? "≥" : "<"} ${gate.threshold} needed`;
    case "maxAgeDays":
      return `last recalled ${value} day(s) ago, ${gate.passed ? "within" : "past"} ${gate.threshold}`;
    case "minScore":
      return `score ${value} ${gate.passed ? "≥" : "<"} ${gate.threshold}`;
  }
}

const round = (value: number) => Math.round(value * 1000) / 1000;
