/**
 * A seeded pseudo-random generator (mulberry32), so an approximate index is built the same way
 * every run and a dream plan stays reproducible.
 *
 * @module
 */

/**
 * Uniform numbers in [0, 1) from a 32-bit seed.
 *
 * @example
 * const random = seededRandom(42);
 * random(); // => the same number on every run
 */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A standard normal sample (Box–Muller). */
export function gaussian(random: () => number): number {
  const u = 1 - random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}
