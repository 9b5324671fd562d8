/**
 * The one way the PostgreSQL role files talk to the server: `query` on whichever connection the
 * call runs on (a pooled one for a single operation, the transaction's for a transaction), with
 * parameters always bound, never spliced into the text.
 *
 * @module
 */

import type { PoolClient } from "pg";

export interface Sql {
  /** The rows of one statement. */
  rows<R>(text: string, params?: readonly unknown[]): Promise<R[]>;
  /** The first row of one statement, or undefined. */
  one<R>(text: string, params?: readonly unknown[]): Promise<R | undefined>;
  /** How many rows one statement changed. */
  run(text: string, params?: readonly unknown[]): Promise<number>;
}

export function sqlOn(client: PoolClient): Sql {
  return {
    async rows<R>(text: string, params: readonly unknown[] = []) {
      const result = await client.query(text, params as unknown[]);
      return result.rows as R[];
    },
    async one<R>(text: string, params: readonly unknown[] = []) {
      const result = await client.query(text, params as unknown[]);
      return result.rows[0] as R | undefined;
    },
    async run(text: string, params: readonly unknown[] = []) {
      const result = await client.query(text, params as unknown[]);
      return result.rowCount ?? 0;
    },
  };
}

/** A vector as pgvector's text form reads it: float32 values print and parse back exactly. */
export function vectorLiteral(vector: Float32Array): string {
  return `[${Array.from(vector).join(",")}]`;
}

/** pgvector's text form (`[1,0.5]`) as a Float32Array. */
export function parseVector(text: string): Float32Array {
  const inner = text.slice(1, -1);
  return inner === "" ? new Float32Array(0) : Float32Array.from(inner.split(","), Number);
}

/** A bigint column as pg returns it (a string) as a number: sequence values stay far below 2^53. */
export function toNumber(value: string | number): number {
  return typeof value === "number" ? value : Number(value);
}
