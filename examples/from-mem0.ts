/**
 * A typical `mem0ai/oss` program, unchanged but for its import line: Mem0's configuration shape,
 * a conversation added with metadata, search with filters, getAll, update, history, delete and
 * deleteAll. Offline: with no `embedder` in the config, Lucid embeds locally.
 *
 *   npx tsx examples/from-mem0.ts
 *
 * In your program the import is `from "lucid-memory"`; here it is the checkout's source.
 */

import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

// import { Memory } from "mem0ai/oss";
import { Memory } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "from-mem0-"));

// Mem0's config: its SQLite vector store file becomes Lucid's store.
const memory = new Memory({
  version: "v1.1",
  vectorStore: { provider: "memory", config: { collectionName: "memories", dbPath: join(dir, "memory.db") } },
});

try {
  const messages = [
    { role: "user", content: "Hi, I'm Alex. I love basketball and gaming." },
    { role: "assistant", content: "Hey Alex! I'll remember your interests." },
    { role: "user", content: "I'm vegetarian and allergic to nuts." },
  ];
  const added = await memory.add(messages, { userId: "alex", metadata: { category: "profile" } });
  console.log(`added ${added.results.length}:`, added.results.map((item) => item.metadata.event).join(", "));

  const { results } = await memory.search("dietary restrictions", { filters: { user_id: "alex" }, topK: 3 });
  for (const item of results) console.log(`search: ${item.memory} (${item.score?.toFixed(2)})`);

  const all = await memory.getAll({ filters: { user_id: "alex" } });
  console.log(`getAll: ${all.results.length} memories, category ${all.results[0]?.metadata.category}`);

  const diet = results.find((item) => item.memory.includes("vegetarian"));
  if (diet === undefined) throw new Error("search did not find the diet");
  await memory.update(diet.id, { text: "Alex is vegan and allergic to nuts", metadata: { source: "chat" } });
  console.log(`get: ${(await memory.get(diet.id))?.memory}`);

  const history = await memory.history(diet.id);
  console.log(`history: ${history.map((row) => row.action).join(" → ")}`);

  console.log(`delete: ${(await memory.delete(diet.id)).message}`);
  console.log(`deleteAll: ${(await memory.deleteAll({ userId: "alex" })).message}`);
} finally {
  await memory.close();
  rmSync(dir, { recursive: true, force: true });
}
