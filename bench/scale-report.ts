/**
 * The scale benchmark's tables and goals.
 *
 * @module
 */

import { SEARCH_MODES } from "../src/index.js";
import type { Profile } from "./profile.js";
import { renderProfile } from "./profile.js";
import { fixed, type Goal, renderGoals, renderTable } from "./report.js";
import { type Layout, type SearchRun, SMALL_SCOPE_SIZE } from "./scale-runs.js";
import type { Timings } from "./stats.js";

export interface SizeResult {
  readonly size: number;
  readonly layout: Layout;
  readonly buildMs: number;
  readonly dbBytes: number;
  readonly search: Record<string, SearchRun>;
  readonly singleAdds: { count: number; ms: number };
  /** Scoped stores only: hybrid searches of a user holding 10 memories. */
  readonly smallScope?: Timings;
  readonly searchProfile: Profile;
  readonly addProfile: Profile;
}

/** A scoped store whose memories and queries the local model embeds: search as a user sees it. */
export interface EndToEnd {
  readonly size: number;
  readonly embedder: string;
  readonly buildMs: number;
  readonly queries: number;
  readonly hybrid: Timings;
}

export interface Throughput {
  readonly embedder: string;
  readonly shape: string;
  readonly count: number;
  readonly ms: number;
}

const rate = (count: number, ms: number) => Math.round(count / (ms / 1000));

export function renderScale(
  results: readonly SizeResult[],
  throughput: readonly Throughput[],
  endToEnd: EndToEnd,
  sizes: readonly number[],
  plan: { queries: number; singleAdds: number; warmUp: number },
): { text: string; goals: Goal[] } {
  const build = renderTable(
    [
      "memories",
      "layout",
      "build s",
      "memories/s (lists of 100)",
      "single adds into it, memories/s",
      "db MB",
    ],
    results.map((r) => [
      r.size,
      r.layout,
      fixed(r.buildMs / 1000, 1),
      rate(r.size, r.buildMs),
      rate(r.singleAdds.count, r.singleAdds.ms),
      fixed(r.dbBytes / 1e6, 1),
    ]),
  );
  const latency = renderTable(
    [
      "memories",
      "layout",
      ...SEARCH_MODES.flatMap((mode) => [`${mode} p50 ms`, `${mode} p95 ms`]),
      "hybrid cpu p50 ms",
      "hybrid target@10",
      `${SMALL_SCOPE_SIZE}-memory user hybrid p50 ms`,
    ],
    results.map((r) => [
      r.size,
      r.layout,
      ...SEARCH_MODES.flatMap((mode) => [
        fixed(r.search[mode]?.latency.p50 ?? Number.NaN, 2),
        fixed(r.search[mode]?.latency.p95 ?? Number.NaN, 2),
      ]),
      fixed(r.search.hybrid?.cpu.p50 ?? Number.NaN, 2),
      fixed(r.search.hybrid?.targetInTop10 ?? Number.NaN, 2),
      r.smallScope === undefined ? "-" : fixed(r.smallScope.wall.p50, 2),
    ]),
  );
  const adds = renderTable(
    ["embedder", "call shape", "memories", "s", "memories/s"],
    throughput.map((t) => [t.embedder, t.shape, t.count, fixed(t.ms / 1000, 2), rate(t.count, t.ms)]),
  );
  const live = renderTable(
    [
      "memories",
      "embedder",
      "build s",
      "memories/s (lists of 100)",
      "queries",
      "hybrid p50 ms",
      "hybrid p95 ms",
    ],
    [
      [
        endToEnd.size,
        endToEnd.embedder,
        fixed(endToEnd.buildMs / 1000, 1),
        rate(endToEnd.size, endToEnd.buildMs),
        endToEnd.queries,
        fixed(endToEnd.hybrid.wall.p50, 2),
        fixed(endToEnd.hybrid.wall.p95, 2),
      ],
    ],
  );
  const largest = Math.max(...sizes);
  const profiles = results
    .filter((r) => r.size === largest)
    .flatMap((r) => [
      `Hybrid search at ${r.size}, ${r.layout} (${r.searchProfile.count} queries)\n${renderProfile(r.searchProfile)}`,
      ...(r.layout === "scoped"
        ? [
            `Single add into ${r.size}, ${r.layout} (${r.addProfile.count} adds)\n${renderProfile(r.addProfile)}`,
          ]
        : []),
    ]);

  const scoped100k = results.find((r) => r.size === 100_000 && r.layout === "scoped")?.search.hybrid;
  const single = throughput.find((t) => t.embedder === "precomputed" && t.shape === "single add");
  const lists = throughput.find((t) => t.embedder === "precomputed" && t.shape !== "single add");
  const goals: Goal[] = [
    {
      name: "scoped engine-only hybrid search p50 at 100k",
      target: "≤ 2 ms",
      actual:
        scoped100k === undefined
          ? "not run (add 100000 to --sizes)"
          : `${scoped100k.latency.p50.toFixed(2)} ms (cpu ${scoped100k.cpu.p50.toFixed(2)} ms)`,
      pass: scoped100k !== undefined && scoped100k.latency.p50 <= 2,
    },
    {
      name: `end-to-end hybrid search p50 at ${endToEnd.size} (query embedded by ${endToEnd.embedder})`,
      target: "≤ 10 ms at 10k",
      actual: `${endToEnd.hybrid.wall.p50.toFixed(2)} ms`,
      pass: endToEnd.size >= 10_000 && endToEnd.hybrid.wall.p50 <= 10,
    },
    ...[single, lists].flatMap((t) =>
      t === undefined
        ? []
        : [
            {
              name: `add with precomputed vectors, ${t.shape}`,
              target: "≥ 2,000 memories/s",
              actual: `${rate(t.count, t.ms)}/s`,
              pass: rate(t.count, t.ms) >= 2000,
            },
          ],
    ),
  ];
  const text = [
    `Build (engine-only; ${plan.singleAdds} single adds measured into each built store afterwards)\n${build}`,
    `Search latency (default topK 20 and threshold; ${plan.queries} queries per mode after ${plan.warmUp} warm-up)\n${latency}`,
    `Add throughput into a fresh store (scoped, 100 users)\n${adds}`,
    `End to end: the local model embeds every memory and every query (scoped, 100 users)\n${live}`,
    ...profiles,
    `Goals\n${renderGoals(goals)}`,
  ].join("\n\n");
  return { text, goals };
}
