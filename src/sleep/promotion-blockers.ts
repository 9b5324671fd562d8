/**
 * Why nothing promotes (`openclaw-dreaming.md` §13 item 3: sweeps that promote nothing for weeks,
 * and say nothing about it). From the same scores the deep phase ranks by (`deep-rank.ts`): a deep
 * phase switched off, no recall signals at all, every entry out of the running, or — for the
 * entries still in it — how many each gate turns away, the one that turns away most with the entry
 * closest to passing it, and the entries only `minScore` keeps out.
 *
 * Pure and deterministic: the same entries, options and settings give the same blockers in the
 * same order.
 *
 * @module
 */

import { type DeepOptions, type GateName, type Scored, scoreEntry } from "./deep-rank.js";
import type { RecallEntry } from "./recall-entry.js";
import { noteAddress } from "./recall-keys.js";
import { DEFAULT_SLEEP_SETTINGS, type SleepSettings } from "./sleep-config.js";

export const BLOCKER_KINDS = ["phase", "no-signals", "excluded", "gate"] as const;
export type BlockerKind = (typeof BLOCKER_KINDS)[number];

export interface Blocker {
  /**
   * `phase`: the deep phase is off or may promote nothing; `no-signals`: no recall entries at all;
   * `excluded`: every entry is out of the running; `gate`: a gate turns ranges away.
   */
  readonly kind: BlockerKind;
  readonly gate?: GateName;
  /**
   * `phase`: the ranges that pass every gate all the same; `no-signals`: 0; `excluded`: the
   * entries; `gate`: the ranges the gate turns away (for the `minScore` blocker carrying `best`
   * that follows the per-gate ones: the ranges that pass every other gate).
   */
  readonly count: number;
  /** A sentence to act on. */
  readonly message: string;
  /** The range closest to passing, with its value and the threshold it misses. */
  readonly best?: { readonly address: string; readonly value: number; readonly threshold: number };
}

/** The gates in the order `scoreEntry` checks them, which breaks ties between their counts. */
const GATE_ORDER: readonly GateName[] = ["minRecallCount", "minUniqueQueries", "maxAgeDays", "minScore"];

/**
 * What keeps every entry from promoting; empty when something would promote.
 *
 * @example
 * promotionBlockers(entries, { now: "2026-11-29T03:00:00Z" });
 * // => [{ kind: "gate", gate: "minUniqueQueries", count: 412, message: "412 of 430 ranges were asked by
 * //      fewer than 3 distinct queries (minUniqueQueries); the closest, memory/2026-11-04.md#L3-L3, has 2.",
 * //      best: { address: "memory/2026-11-04.md#L3-L3", value: 2, threshold: 3 } }, …]
 */
export function promotionBlockers(
  entries: readonly RecallEntry[],
  options: DeepOptions,
  settings: SleepSettings = DEFAULT_SLEEP_SETTINGS,
): Blocker[] {
  const scored = entries.map((entry) => scoreEntry(entry, options));
  const running = scored.filter((each) => each.excluded === undefined);
  const passing = running.filter((each) => each.gates.every((gate) => gate.passed)).length;
  const phase = phaseBlocker(settings, options, passing);
  const blockers = phase === undefined ? [] : [phase];
  if (passing > 0) return blockers;
  if (entries.length === 0) return [...blockers, NO_SIGNALS];
  if (running.length === 0) return [...blockers, excludedBlocker(scored)];
  return [...blockers, ...gateBlockers(running), ...nearMisses(running)];
}

const NO_SIGNALS: Blocker = Object.freeze({
  kind: "no-signals",
  count: 0,
  message:
    "No recall signals are recorded in this workspace yet, so there is nothing to rank. Signals come from " +
    "searches that return daily notes: `lucid search --workspace DIR`, the MCP server's memory_search, or " +
    "a search log replayed with `lucid sleep record --file LOG.jsonl`.",
});

function phaseBlocker(settings: SleepSettings, options: DeepOptions, passing: number): Blocker | undefined {
  const deep = settings.phases.deep;
  const why = !deep.enabled
    ? "The deep phase is off (sleep.phases.deep.enabled is false), so no sweep promotes anything; set it to true in lucid.config.json."
    : deep.limit <= 0
      ? "sleep.phases.deep.limit is 0, so the deep phase promotes nothing; set it to the most ranges a sweep may promote (default 10)."
      : (options.limit ?? 10) <= 0
        ? "The limit is 0, so nothing is promoted; give a positive limit."
        : undefined;
  if (why === undefined) return undefined;
  const pass = passing === 1 ? "passes" : "pass";
  const would =
    passing > 0 ? ` ${plural(passing, "range")} ${pass} every gate and would promote otherwise.` : "";
  return { kind: "phase", count: passing, message: why + would };
}

const EXCLUSIONS: readonly [NonNullable<Scored["excluded"]>, string][] = [
  ["promoted", "promoted already"],
  ["not-short-term", "not in a daily note (only memory/YYYY-MM-DD.md notes promote)"],
  ["contaminated", "contaminated (sleep's own output or session metadata)"],
  ["possible-injection", "reading as instructions to the agent (possible injection)"],
  ["no-signals", "with no signals left"],
];

function excludedBlocker(scored: readonly Scored[]): Blocker {
  const reasons = EXCLUSIONS.flatMap(([reason, words]) => {
    const count = scored.filter((each) => each.excluded === reason).length;
    return count === 0 ? [] : [`${count} ${words}`];
  });
  const all = scored.length === 1 ? "The only recorded range is" : `All ${scored.length} recorded ranges are`;
  return {
    kind: "excluded",
    count: scored.length,
    message: `${all} out of the running: ${reasons.join(", ")}. Only new recalls of daily notes can promote now.`,
  };
}

/** What each gate's blocker says: the ranges it turns away, and the closest one's value. */
const GATE_WORDS: Readonly<
  Record<
    GateName,
    { turned: (threshold: number, one: boolean) => string; closest: (value: string) => string }
  >
> = {
  minRecallCount: {
    turned: (threshold, one) => `${one ? "was" : "were"} recalled or sighted fewer than ${threshold} times`,
    closest: (value) => `has ${value}`,
  },
  minUniqueQueries: {
    turned: (threshold, one) => `${one ? "was" : "were"} asked by fewer than ${threshold} distinct queries`,
    closest: (value) => `has ${value}`,
  },
  maxAgeDays: {
    turned: (threshold, one) => `${one ? "was" : "were"} last recalled more than ${threshold} days ago`,
    closest: (value) => `was last recalled ${value} days ago`,
  },
  minScore: {
    turned: (threshold, one) => `${one ? "scores" : "score"} below ${threshold}`,
    closest: (value) => `scores ${value}`,
  },
};

/** Per gate, the ranges it turns away, most first; the first names the range closest to passing it. */
function gateBlockers(running: readonly Scored[]): Blocker[] {
  const failing = GATE_ORDER.map((name) => ({
    name,
    turned: running.filter((each) => gateOf(each, name)?.passed === false),
  }))
    .filter((each) => each.turned.length > 0)
    .sort((a, b) => b.turned.length - a.turned.length);
  return failing.map(({ name, turned }, index): Blocker => {
    const words = GATE_WORDS[name];
    const head = `${turned.length} of ${plural(running.length, "range")} ${words.turned(thresholdOf(turned, name), turned.length === 1)} (${name})`;
    if (index > 0) return { kind: "gate", gate: name, count: turned.length, message: `${head}.` };
    const best = closest(turned, name);
    return {
      kind: "gate",
      gate: name,
      count: turned.length,
      message: `${head}; the closest, ${best.address}, ${words.closest(format(name, best.value))}.`,
      best,
    };
  });
}

/** The ranges that pass every gate but `minScore`: the ones a little more use would promote. */
function nearMisses(running: readonly Scored[]): Blocker[] {
  const almost = running.filter((each) =>
    each.gates.every((gate) => gate.passed === (gate.gate !== "minScore")),
  );
  if (almost.length === 0) return [];
  const best = closest(almost, "minScore");
  const score = format("minScore", best.value);
  const message =
    almost.length === 1
      ? `1 range passes every other gate but scores below ${best.threshold} (minScore): ${best.address}, at ${score}.`
      : `${almost.length} ranges pass every other gate but score below ${best.threshold} (minScore); the best, ${best.address}, scores ${score}.`;
  return [{ kind: "gate", gate: "minScore", count: almost.length, message, best }];
}

function gateOf(scored: Scored, name: GateName) {
  return scored.gates.find((gate) => gate.gate === name);
}

function thresholdOf(turned: readonly Scored[], name: GateName): number {
  const first = turned[0];
  return first === undefined ? 0 : (gateOf(first, name)?.threshold ?? 0);
}

/**
 * The range nearest the gate's threshold; ties go to the higher score, then the path and line,
 * as the ranking orders them.
 */
function closest(turned: readonly Scored[], name: GateName): NonNullable<Blocker["best"]> {
  const distance = (scored: Scored) => {
    const gate = gateOf(scored, name);
    if (gate === undefined) return Number.POSITIVE_INFINITY;
    return name === "maxAgeDays" ? gate.value - gate.threshold : gate.threshold - gate.value;
  };
  const best = [...turned].sort(
    (a, b) =>
      distance(a) - distance(b) ||
      b.rawScore - a.rawScore ||
      (a.entry.path < b.entry.path ? -1 : a.entry.path > b.entry.path ? 1 : 0) ||
      a.entry.startLine - b.entry.startLine,
  )[0] as Scored;
  const gate = gateOf(best, name);
  return {
    address: noteAddress(best.entry.path, best.entry.startLine, best.entry.endLine),
    value: awayFromPassing(name, gate?.value ?? 0),
    threshold: gate?.threshold ?? 0,
  };
}

/**
 * A value rounded away from passing, so a miss never reads as a pass: an age of 30.04 days over a
 * limit of 30 shows as 30.1, a score of 0.7499 under 0.75 as 0.749.
 */
function awayFromPassing(name: GateName, value: number): number {
  if (name === "maxAgeDays") return Math.ceil(value * 10) / 10;
  if (name === "minScore") return Math.floor(value * 1000) / 1000;
  return value;
}

function format(name: GateName, value: number): string {
  if (name === "maxAgeDays") return value.toFixed(1);
  if (name === "minScore") return value.toFixed(3);
  return String(value);
}

function plural(count: number, one: string): string {
  return `${count} ${count === 1 ? one : `${one}s`}`;
}
