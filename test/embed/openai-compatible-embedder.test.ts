import { afterEach, describe, expect, it } from "vitest";
import { createOpenAICompatibleEmbedder } from "../../src/embed/openai-compatible/openai-compatible-embedder.js";
import {
  type FakeEmbeddingServer,
  type FakeEmbeddingServerOptions,
  fakeVector,
  startFakeEmbeddingServer,
} from "../helpers/fake-openai-server.js";

const servers: FakeEmbeddingServer[] = [];

async function start(options: FakeEmbeddingServerOptions): Promise<FakeEmbeddingServer> {
  const server = await startFakeEmbeddingServer(options);
  servers.push(server);
  return server;
}

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

function catchError(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  throw new Error("expected a throw");
}

describe("createOpenAICompatibleEmbedder", () => {
  it("returns one Float32Array per text, ordered by index even when the server answers out of order", async () => {
    const server = await start({ dimension: 8, reverseOrder: true });
    const embedder = createOpenAICompatibleEmbedder({
      baseURL: server.baseURL,
      model: "fake-embed",
      dimension: 8,
    });
    const texts = ["alpha", "beta", "gamma"];

    const vectors = await embedder.embed(texts, "add");

    expect(embedder.id).toBe("openai-compatible:fake-embed");
    expect(embedder.dimension).toBe(8);
    expect(vectors).toEqual(texts.map((text) => Float32Array.from(fakeVector(text, 8))));
    expect(vectors.every((vector) => vector instanceof Float32Array)).toBe(true);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0]).toMatchObject({
      method: "POST",
      url: "/v1/embeddings",
      body: { model: "fake-embed", input: texts, encoding_format: "float" },
    });
    expect(server.requests[0]?.body).not.toHaveProperty("dimensions");
  });

  it("splits large inputs into batches of batchSize and keeps the overall order", async () => {
    const server = await start({ dimension: 4 });
    const embedder = createOpenAICompatibleEmbedder({
      baseURL: server.baseURL,
      model: "m",
      dimension: 4,
      batchSize: 2,
    });
    const texts = ["a", "b", "c", "d", "e"];

    const vectors = await embedder.embed(texts, "add");

    expect(server.requests.map((request) => (request.body as { input: string[] }).input)).toEqual([
      ["a", "b"],
      ["c", "d"],
      ["e"],
    ]);
    expect(vectors).toEqual(texts.map((text) => Float32Array.from(fakeVector(text, 4))));
  });

  it("sends no request for an empty input", async () => {
    const server = await start({ dimension: 4 });
    const embedder = createOpenAICompatibleEmbedder({ baseURL: server.baseURL, model: "m", dimension: 4 });

    await expect(embedder.embed([], "search")).resolves.toEqual([]);
    expect(server.requests).toHaveLength(0);
  });

  it("sends the API key as a bearer token, plus extra headers, and trims a trailing slash", async () => {
    const server = await start({ dimension: 4 });
    const embedder = createOpenAICompatibleEmbedder({
      baseURL: `${server.baseURL}/`,
      model: "m",
      dimension: 4,
      apiKey: "sk-test-123",
      headers: { "x-organisation": "lucid" },
    });

    await embedder.embed(["hello"], "add");

    expect(server.requests[0]?.url).toBe("/v1/embeddings");
    expect(server.requests[0]?.headers).toMatchObject({
      authorization: "Bearer sk-test-123",
      "x-organisation": "lucid",
      "content-type": "application/json",
    });
  });

  it("sends no authorization header without an API key", async () => {
    const server = await start({ dimension: 4 });
    const embedder = createOpenAICompatibleEmbedder({ baseURL: server.baseURL, model: "m", dimension: 4 });

    await embedder.embed(["hello"], "add");

    expect(server.requests[0]?.headers).not.toHaveProperty("authorization");
  });

  it("passes dimensions to the server and uses it as the vector length", async () => {
    const server = await start({ dimension: 16 });
    const embedder = createOpenAICompatibleEmbedder({ baseURL: server.baseURL, model: "m", dimensions: 6 });

    const [vector] = await embedder.embed(["shorten me"], "add");

    expect(embedder.dimension).toBe(6);
    expect(server.requests[0]?.body).toMatchObject({ dimensions: 6 });
    expect(vector).toEqual(Float32Array.from(fakeVector("shorten me", 6)));
  });

  it("rejects options without a vector length, or with conflicting or invalid ones", () => {
    const baseURL = "http://127.0.0.1:1/v1";
    expect(catchError(() => createOpenAICompatibleEmbedder({ baseURL, model: "m" }))).toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    expect(
      catchError(() => createOpenAICompatibleEmbedder({ baseURL, model: "m", dimension: 4, dimensions: 8 })),
    ).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(
      catchError(() => createOpenAICompatibleEmbedder({ baseURL, model: "m", dimension: 0 })),
    ).toMatchObject({
      code: "INVALID_ARGUMENT",
    });
    expect(
      catchError(() => createOpenAICompatibleEmbedder({ baseURL: "", model: "m", dimension: 4 })),
    ).toMatchObject({ code: "INVALID_ARGUMENT" });
    expect(
      catchError(() => createOpenAICompatibleEmbedder({ baseURL, model: "m", dimension: 4, batchSize: 1.5 })),
    ).toMatchObject({ code: "INVALID_ARGUMENT" });
  });

  it("turns an HTTP 500 into EMBEDDER_FAILED without quoting the API key", async () => {
    const apiKey = "sk-secret-value";
    const server = await start({
      dimension: 4,
      reply: () => ({ status: 500, body: JSON.stringify({ error: `model crashed for key ${apiKey}` }) }),
    });
    const embedder = createOpenAICompatibleEmbedder({
      baseURL: server.baseURL,
      model: "m",
      dimension: 4,
      apiKey,
    });

    const error = await embedder.embed(["x"], "add").catch((caught: unknown) => caught);

    expect(error).toMatchObject({ code: "EMBEDDER_FAILED", details: { status: 500 } });
    expect(String((error as Error).message)).not.toContain(apiKey);
  });

  it("turns a vector of the wrong length into EMBEDDING_DIMENSION_MISMATCH", async () => {
    const server = await start({ dimension: 3 });
    const embedder = createOpenAICompatibleEmbedder({ baseURL: server.baseURL, model: "m", dimension: 4 });

    await expect(embedder.embed(["x"], "add")).rejects.toMatchObject({
      code: "EMBEDDING_DIMENSION_MISMATCH",
      details: { expected: 4, received: 3 },
    });
  });

  it.each([
    ["a body that is not JSON", "<html>Bad gateway</html>"],
    ["a response without data", JSON.stringify({ object: "list" })],
    ["too few vectors", JSON.stringify({ data: [{ index: 0, embedding: [0, 0, 0, 0] }] })],
    [
      "a non-numeric component",
      JSON.stringify({
        data: [
          { index: 0, embedding: [0, 0, "x", 0] },
          { index: 1, embedding: [0, 0, 0, 0] },
        ],
      }),
    ],
    [
      "a duplicated index",
      JSON.stringify({
        data: [
          { index: 0, embedding: [0, 0, 0, 0] },
          { index: 0, embedding: [0, 0, 0, 0] },
        ],
      }),
    ],
    [
      "a base64 embedding",
      JSON.stringify({
        data: [
          { index: 0, embedding: "AAAA" },
          { index: 1, embedding: "AAAA" },
        ],
      }),
    ],
  ])("turns %s into EMBEDDER_FAILED", async (_case, body) => {
    const server = await start({ dimension: 4, reply: () => ({ body }) });
    const embedder = createOpenAICompatibleEmbedder({ baseURL: server.baseURL, model: "m", dimension: 4 });

    await expect(embedder.embed(["one", "two"], "add")).rejects.toMatchObject({ code: "EMBEDDER_FAILED" });
  });

  it("turns an unreachable server into EMBEDDER_FAILED naming the URL", async () => {
    const server = await startFakeEmbeddingServer({ dimension: 4 });
    await server.close(); // the port is now free and refuses connections
    const embedder = createOpenAICompatibleEmbedder({ baseURL: server.baseURL, model: "m", dimension: 4 });

    await expect(embedder.embed(["x"], "add")).rejects.toMatchObject({
      code: "EMBEDDER_FAILED",
      details: { url: `${server.baseURL}/embeddings`, timedOut: false },
    });
  });

  it("turns a server that never answers into EMBEDDER_FAILED after timeoutMs", async () => {
    const server = await start({ dimension: 4, reply: () => "never" });
    const embedder = createOpenAICompatibleEmbedder({
      baseURL: server.baseURL,
      model: "m",
      dimension: 4,
      timeoutMs: 150,
    });

    // Without the timeout this would wait forever (the test's own timeout); timedOut says which fired.
    await expect(embedder.embed(["x"], "add")).rejects.toMatchObject({
      code: "EMBEDDER_FAILED",
      details: { timedOut: true },
    });
    expect(server.requests).toHaveLength(1);
  });
});
