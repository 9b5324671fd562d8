/**
 * Keeping the best `k` of a stream of scored rows without sorting the stream: a small sorted
 * buffer, since `k` (tens) is tiny next to the number of candidates (thousands).
 *
 * @module
 */

export interface Scored {
  readonly row: number;
  readonly score: number;
}

/** The best `k` rows seen so far, best first; ties keep the lower row (deterministic). */
export class TopK {
  private readonly rows: number[] = [];
  private readonly scores: number[] = [];

  constructor(private readonly k: number) {}

  /** The score a new row must beat to enter (−∞ until the buffer is full). */
  get floor(): number {
    return this.rows.length < this.k ? Number.NEGATIVE_INFINITY : (this.scores[this.k - 1] as number);
  }

  push(row: number, score: number): void {
    if (this.k <= 0) return;
    if (this.rows.length === this.k && !this.beats(row, score, this.k - 1)) return;
    let at = Math.min(this.rows.length, this.k - 1);
    if (this.rows.length === this.k) {
      this.rows.pop();
      this.scores.pop();
    }
    while (at > 0 && this.beats(row, score, at - 1)) at--;
    this.rows.splice(at, 0, row);
    this.scores.splice(at, 0, score);
  }

  clear(): void {
    this.rows.length = 0;
    this.scores.length = 0;
  }

  result(): Scored[] {
    return this.rows.map((row, index) => ({ row, score: this.scores[index] as number }));
  }

  private beats(row: number, score: number, index: number): boolean {
    const other = this.scores[index] as number;
    return score > other || (score === other && row < (this.rows[index] as number));
  }
}
