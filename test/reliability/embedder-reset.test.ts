/**
 * Issue 11, major 8: an HTTP embedder whose server closes idle keep-alive connections (uvicorn does,
 * after 5 s, without a Keep-Alive hint) failed the first request after the event loop had been busy:
 * the client reused the closed socket and got EMBEDDER_FAILED. Embedding is idempotent, so a reset
 * connection is retried on a new one.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { createOpenAICompatibleEmbedder } from "../../src/embed/openai-compatible/openai-compatible-embedder.js";
import { type FakeEmbeddingServer, startFakeEmbeddingServer } from "../helpers/fake-openai-server.js";

const IDLE_CLOSE_MS = 100;

let server: Server | undefined;
let fake: FakeEmbeddingServer | undefined;

afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => (server ? server.close(resolve) : resolve(undefined)));
  await fake?.close();
  server = undefined;
  fake = undefined;
});

/** Answers every request, then closes the connection itself once it has been idle for IDLE_CLOSE_MS. */
async function startIdleClosingServer(): Promise<string> {
  server = createServer(async (req, res) => {
    for await (const _chunk of req) {
      // drain the body
    }
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify({ data: [{ index: 0, embedding: [0.6, 0.8] }] }));
    const socket = req.socket;
    setTimeout(() => socket.end(), IDLE_CLOSE_MS);
  });
  server.keepAliveTimeout = 0; // no Keep-Alive hint: the client cannot know when the server will close
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

/** What planning a large dream did to the event loop: nothing else runs, not even the socket's close. */
function blockEventLoop(ms: number): void {
  const until = Date.now() + ms;
  while (Date.now() < until) {
    // busy
  }
}

describe("an HTTP embedder whose server closes idle connections", () => {
  it("embeds after the event loop was blocked past the server's idle timeout", async () => {
    const baseURL = await startIdleClosingServer();
    const embedder = createOpenAICompatibleEmbedder({ baseURL, model: "m", dimension: 2 });

    // Each round: a request opens a kept-alive connection; the loop is blocked while the server
    // closes it; the next request would go out on the closed socket. Before the fix about half failed.
    for (let round = 0; round < 10; round++) {
      await embedder.embed(["first"], "add");
      blockEventLoop(IDLE_CLOSE_MS * 2.5);
      const [vector] = await embedder.embed(["second"], "add");
      expect(Array.from(vector ?? [])).toEqual([Math.fround(0.6), Math.fround(0.8)]);
    }
  });

  it("retries a reset connection, and gives up with EMBEDDER_FAILED when every try is reset", async () => {
    let resets = 1;
    fake = await startFakeEmbeddingServer({
      dimension: 2,
      reply: () => (resets-- > 0 ? "reset" : undefined),
    });
    const embedder = createOpenAICompatibleEmbedder({ baseURL: fake.baseURL, model: "m", dimension: 2 });
    await expect(embedder.embed(["x"], "add")).resolves.toHaveLength(1);
    expect(fake.requests).toHaveLength(2);

    resets = Number.POSITIVE_INFINITY;
    fake.requests.length = 0;
    await expect(embedder.embed(["x"], "add")).rejects.toMatchObject({ code: "EMBEDDER_FAILED" });
    expect(fake.requests).toHaveLength(3);
  });

  it("does not retry a server that answers with an error", async () => {
    fake = await startFakeEmbeddingServer({ dimension: 2, reply: () => ({ status: 500, body: "{}" }) });
    const embedder = createOpenAICompatibleEmbedder({ baseURL: fake.baseURL, model: "m", dimension: 2 });
    await expect(embedder.embed(["x"], "add")).rejects.toMatchObject({ code: "EMBEDDER_FAILED" });
    expect(fake.requests).toHaveLength(1);
  });
});
