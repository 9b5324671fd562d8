/**
 * Latency summaries: percentiles by the nearest-rank method over the sorted samples.
 *
 * @module
 */

export interface LatencySummary {
  readonly count: number;
  readonly p50: number;
  readonly p95: number;
  readonly p99: number;
  readonly mean: number;
  readonly max: number;
}

export function percentile(sorted: readonly number[], fraction: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil(fraction * sorted.length);
  return sorted[Math.min(Math.max(rank, 1), sorted.length) - 1] as number;
}

export function summarise(samples: readonly number[]): LatencySummary {
  const sorted = [...samples].sort((a, b) => a - b);
  const total = sorted.reduce((sum, value) => sum + value, 0);
  return {
    count: sorted.length,
    p50: percentile(sorted, 0.5),
    p95: percentile(sorted, 0.95),
    p99: percentile(sorted, 0.99),
    mean: sorted.length === 0 ? Number.NaN : total / sorted.length,
    max: sorted.at(-1) ?? Number.NaN,
  };
}

export const mean = (values: readonly number[]): number =>
  values.length === 0 ? Number.NaN : values.reduce((sum, value) => sum + value, 0) / values.length;

export interface Timings {
  /** Wall-clock time: what a caller waits. */
  readonly wall: LatencySummary;
  /**
   * CPU time of this process (all threads) over the same calls. On a machine shared with other
   * work, wall time grows with the load while CPU time mostly does not, so this is the steadier figure.
   */
  readonly cpu: LatencySummary;
}

/** One call's result, its wall time and this process's CPU time over it (ms). */
export async function timeOnce<T>(
  fn: () => Promise<T>,
): Promise<{ result: T; wallMs: number; cpuMs: number }> {
  const startCpu = process.cpuUsage();
  const start = performance.now();
  const result = await fn();
  const wallMs = performance.now() - start;
  const used = process.cpuUsage(startCpu);
  return { result, wallMs, cpuMs: (used.user + used.system) / 1000 };
}

/** Collects wall and CPU time for each call it runs. */
export function createSampler(): { run<T>(fn: () => Promise<T>): Promise<T>; summary(): Timings } {
  const wall: number[] = [];
  const cpu: number[] = [];
  return {
    async run(fn) {
      const startCpu = process.cpuUsage();
      const start = performance.now();
      const result = await fn();
      wall.push(performance.now() - start);
      const used = process.cpuUsage(startCpu);
      cpu.push((used.user + used.system) / 1000);
      return result;
    },
    summary: () => ({ wall: summarise(wall), cpu: summarise(cpu) }),
  };
}
