/**
 * A synthetic memory as the store port takes it, for timing single inserts.
 *
 * @module
 */

import { createHash } from "node:crypto";
import type { NewMemory } from "../src/store/ports/memories.js";
import { memoryId, userId } from "./postgres-load.js";
import type { SyntheticCorpus } from "./synthetic.js";

export function newMemoryRow(corpus: SyntheticCorpus, index: number): NewMemory {
  const memory = corpus.memories[index];
  if (memory === undefined) throw new Error(`the corpus has no memory ${index}`);
  const now = new Date().toISOString();
  return {
    id: memoryId(index),
    text: memory.text,
    hash: createHash("sha256").update(memory.text).digest("hex"),
    user_id: userId(memory.user),
    agent_id: null,
    app_id: null,
    run_id: null,
    category: null,
    metadata: {},
    createdAt: now,
    updatedAt: now,
    expiresAt: null,
    embedding: corpus.vectors.get(memory.text) as Float32Array,
    entities: [{ key: memory.person.toLowerCase(), name: memory.person, type: "person" }],
  };
}
