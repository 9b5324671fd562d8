/**
 * The store contract's harness: the sub-port suites (`memories.ts`, `search.ts`…) register their cases
 * through `it`, and a backend runs them all with `describeStoreContract`, skipping by capability
 * (Hono's `runTest({ skip })`): a part's name skips the part, `part: case` one case.
 */

import { afterEach, beforeEach, describe, it as vitestIt } from "vitest";
import type { NewMemory } from "../../../src/store/ports/memories.js";
import type { MemoryStore } from "../../../src/store/store.js";

export const DIMENSION = 4;

export function vector(...values: number[]): Float32Array {
  return new Float32Array(values);
}

let counter = 0;

export function newMemory(overrides: Partial<NewMemory> & { text: string }): NewMemory {
  counter++;
  return {
    id: `mem-${String(counter).padStart(4, "0")}`,
    hash: `hash-of-${overrides.text}`,
    user_id: "alice",
    agent_id: null,
    app_id: null,
    run_id: null,
    category: null,
    metadata: {},
    createdAt: "2026-01-01T00:00:00.000Z",
    updatedAt: "2026-01-01T00:00:00.000Z",
    expiresAt: null,
    embedding: vector(1, 0, 0, 0),
    entities: [],
    ...overrides,
  };
}

export type CaseFn = (name: string, fn: () => Promise<void>) => void;

/**
 * One sub-port's suite: its cases, given the store under test, a way to reopen it (a new, empty
 * store bound to the test embedder in its place), and `fresh` — a second new, empty store of the same
 * backend, bound to no embedder, open beside it until the case ends.
 */
export interface ContractPart {
  readonly name: string;
  cases(
    it: CaseFn,
    store: () => MemoryStore,
    reopen: () => Promise<void>,
    fresh: () => Promise<MemoryStore>,
  ): void;
}

export interface BackendUnderTest {
  readonly name: string;
  /** A new, empty store. */
  readonly make: () => Promise<MemoryStore>;
  /** Parts (`runs`) or cases (`runs: records runs…`) this backend cannot do, by capability. */
  readonly skip?: readonly string[];
}

export function describeStoreContract(backend: BackendUnderTest, parts: readonly ContractPart[]): void {
  describe(`MemoryStore contract: ${backend.name}`, () => {
    let current: MemoryStore | undefined;
    const store = () => {
      if (current === undefined) throw new Error("no store: the case ran outside its hooks");
      return current;
    };
    const reopen = async () => {
      current = await backend.make();
      await current.bindEmbedder({ id: "test-embedder", dimension: DIMENSION });
    };
    const others: MemoryStore[] = [];
    const fresh = async () => {
      const made = await backend.make();
      others.push(made);
      return made;
    };
    beforeEach(reopen);
    afterEach(async () => {
      await current?.close();
      current = undefined;
      for (const other of others.splice(0)) await other.close();
    });
    for (const part of parts) {
      describe(part.name, () => {
        const it: CaseFn = (name, fn) => {
          const skipped = backend.skip?.some(
            (entry) => entry === part.name || entry === `${part.name}: ${name}`,
          );
          (skipped === true ? vitestIt.skip : vitestIt)(name, fn);
        };
        part.cases(it, store, reopen, fresh);
      });
    }
  });
}
