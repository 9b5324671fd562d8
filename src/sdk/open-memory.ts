import type { MemoryConfig } from "./mem0-config.js";
import { Memory } from "./memory.js";

/**
 * Opens a memory: by default one SQLite file and the offline local embedder.
 *
 * @example
 * import { openMemory } from "lucid-memory";
 * const memory = await openMemory({ path: "./agent.db" });
 * await memory.add("User prefers TypeScript for backend services", { userId: "alice", appId: "billing" });
 * const { results } = await memory.search("what language for the backend?", { filters: { user_id: "alice" }, topK: 5 });
 */
export async function openMemory(options: MemoryConfig = {}): Promise<Memory> {
  const memory = new Memory(options);
  await memory.ready();
  return memory;
}
