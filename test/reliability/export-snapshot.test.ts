/**
 * Export is a snapshot: a backup taken while another writer deletes (here `lucid delete --all`, in a
 * process of its own) holds every memory that existed when it began.
 */

import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { type ExportRecord, openMemory } from "../../src/index.js";
import { spawnCli, tempHomes } from "../cli/run-cli.js";
import { startFakeEmbeddingServer, writeFakeEmbedderHome } from "../helpers/fake-openai-server.js";

describe("export while another process deletes", () => {
  it("keeps every memory that existed when the export began", async () => {
    const server = await startFakeEmbeddingServer({ dimension: 8 });
    const home = writeFakeEmbedderHome(tempHomes()(), server);
    const { createOpenAICompatibleEmbedder } = await import("../../src/index.js");
    const embedder = createOpenAICompatibleEmbedder({ baseURL: server.baseURL, model: "fake", dimension: 8 });
    const memory = await openMemory({ path: join(home, "lucid.db"), embedder });
    try {
      const records = Array.from({ length: 3000 }, (_, index) => ({
        text: `Backup fact ${index}`,
        user_id: index % 2 === 0 ? "user1" : "user2",
      }));
      expect((await memory.importMemories(records, { batchSize: 500 })).imported).toBe(3000);

      const exported: ExportRecord[] = [];
      let deleter: Promise<{ code: number | null }> | undefined;
      for await (const record of memory.exportMemories()) {
        exported.push(record);
        // After the first record the export's snapshot is taken; then user1 is wiped, committed.
        if (deleter === undefined) {
          deleter = spawnCli(["delete", "--all", "--user", "user1", "--yes"], { home });
          expect((await deleter).code).toBe(0);
        }
      }
      expect(exported).toHaveLength(3000);
      expect((await memory.getAll({ userId: "user1" })).total).toBe(0);
    } finally {
      await memory.close();
      await server.close();
    }
  });
});
