/**
 * A `mem0ai/oss` program's configuration, passed to Lucid's `Memory` unchanged: the embedder
 * section talks to a real HTTP server on loopback speaking OpenAI's /embeddings.
 */
import { existsSync } from "node:fs";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { Memory } from "../../src/index.js";
import { type FakeEmbeddingServer, startFakeEmbeddingServer } from "../helpers/fake-openai-server.js";
import { tempFiles } from "../helpers/temp-dir.js";

let server: FakeEmbeddingServer;
const files = tempFiles("mem0-config");

beforeAll(async () => {
  server = await startFakeEmbeddingServer({ dimension: 16 });
});
afterAll(async () => {
  await server.close();
});

describe("new Memory(config) with Mem0's configuration", () => {
  it("runs a Mem0 openai embedder and memory vector store as they are written", async () => {
    const dbPath = files.path("vector_store.db");
    const memory = new Memory({
      version: "v1.1",
      embedder: {
        provider: "openai",
        config: {
          apiKey: "sk-test-key",
          model: "text-embedding-3-small",
          baseURL: server.baseURL,
          embeddingDims: 16,
        },
      },
      vectorStore: { provider: "memory", config: { collectionName: "memories", dimension: 16, dbPath } },
      llm: { provider: "openai", config: { apiKey: "sk-test-key", model: "gpt-5-mini" } },
    });
    await memory.add("I'm vegetarian", { userId: "alice" });
    const { results } = await memory.search("vegetarian", { filters: { user_id: "alice" } });
    expect(results.map((item) => item.memory)).toEqual(["I'm vegetarian"]);
    const request = server.requests.at(-1);
    expect(request?.body).toMatchObject({ model: "text-embedding-3-small", dimensions: 16 });
    expect(request?.headers.authorization).toBe("Bearer sk-test-key");
    expect(existsSync(dbPath)).toBe(true);
    // Mem0's llm section becomes Lucid's OpenAI-compatible client (used by infer: true).
    expect((await memory.status()).llm.model).toBe("openai-compatible:gpt-5-mini");
    await memory.close();
  });

  it("reads an ollama embedder's url as its API root", async () => {
    const root = server.baseURL.replace(/\/v1$/u, "");
    const memory = Memory.fromConfig({
      embedder: { provider: "ollama", config: { model: "nomic-embed-text", url: root, embeddingDims: 16 } },
      vectorStore: { provider: "memory", config: { dbPath: files.path("ollama.db") } },
    });
    await memory.add("Ollama runs locally", { userId: "bo" });
    expect(server.requests.at(-1)).toMatchObject({
      url: "/v1/embeddings",
      body: { model: "nomic-embed-text" },
    });
    await memory.close();
  });

  it("names an unknown key at once, with the nearest known one", () => {
    expect(() => new Memory({ pth: "./agent.db" } as never)).toThrow(
      expect.objectContaining({
        code: "INVALID_ARGUMENT",
        message: expect.stringContaining('(did you mean "path"?)'),
      }),
    );
    expect(
      () =>
        new Memory({
          embedder: {
            provider: "openai",
            config: { apiKey: "k", model: "text-embedding-3-small", embedingDims: 8 },
          },
        }),
    ).toThrow(
      expect.objectContaining({ message: expect.stringContaining('(did you mean "embeddingDims"?)') }),
    );
  });

  it("says what it cannot honour instead of failing later", () => {
    expect(() => new Memory({ embedder: { provider: "azure_openai", config: {} } })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT", message: expect.stringContaining("azure_openai") }),
    );
    expect(
      () => new Memory({ embedder: { provider: "lmstudio", config: { model: "my-custom-embedder" } } }),
    ).toThrow(expect.objectContaining({ message: expect.stringContaining("embeddingDims") }));
    expect(
      () =>
        new Memory({
          embedder: { provider: "openai", config: { model: "text-embedding-3-small", apiKey: "" } },
        }),
    ).toThrow(expect.objectContaining({ message: expect.stringContaining("apiKey") }));
  });

  it("takes Mem0's default provider (openai) when the section names none, and never quotes a key", async () => {
    const memory = new Memory({
      path: files.path("default-provider.db"),
      embedder: {
        config: {
          apiKey: "sk-test-key",
          model: "text-embedding-3-small",
          baseURL: server.baseURL,
          embeddingDims: 16,
        },
      },
    } as never);
    await memory.add("Defaults to openai", { userId: "dee" });
    expect(server.requests.at(-1)?.body).toMatchObject({ model: "text-embedding-3-small" });
    await memory.close();
    const secret = "sk-live-do-not-print-1234567890";
    let message = "";
    try {
      new Memory({ llm: { provider: 7, config: { apiKey: secret } } } as never);
    } catch (error) {
      message = (error as Error).message;
      expect(error).toMatchObject({ code: "INVALID_ARGUMENT" });
    }
    expect(message).toMatch(/llm\.provider must be a non-empty string, got 7/);
    expect(message).not.toContain(secret);
    expect(
      () =>
        new Memory({
          embedder: { provider: "openai", config: { apiKey: "k", baseURL: 5, embeddingDims: 8 } },
        } as never),
    ).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT", message: expect.stringContaining("baseURL") }),
    );
  });

  it("reports settings that do not apply once each, and goes on", async () => {
    const warning = vi.spyOn(process, "emitWarning").mockImplementation(() => undefined);
    try {
      const config = {
        path: ":memory:",
        historyDbPath: "memory.db",
        disableHistory: true,
        vectorStore: { provider: "qdrant", config: { host: "localhost" } },
      };
      const first = new Memory(config);
      const second = new Memory(config);
      const messages = warning.mock.calls.map((call) => String(call[0])).join("\n");
      expect(warning).toHaveBeenCalledTimes(3);
      expect(messages).toMatch(/historyDbPath is not used by Lucid: history is kept in the same store/);
      expect(messages).toMatch(/disableHistory is not used by Lucid: history is always kept/);
      expect(messages).toMatch(/vectorStore "qdrant" is not used by Lucid/);
      await first.close();
      await second.close();
    } finally {
      warning.mockRestore();
    }
  });
});
