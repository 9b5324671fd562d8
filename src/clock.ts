/** A source of the current time; tests and dreams pass a fixed one so runs are reproducible. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };
