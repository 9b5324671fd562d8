/**
 * What every loopback test server shares: listening on 127.0.0.1 on a port the OS picks, closing
 * promptly, and the `use…` form that starts one server for a file's tests.
 *
 * @module
 */

import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";

/** Listens on 127.0.0.1; `close` also drops held-open requests and idle keep-alive sockets. */
export async function listenOnLoopback(
  server: Server,
): Promise<{ port: number; close: () => Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/**
 * One server for the tests of a file: started before them, closed after. The object returned
 * reads through to the running server, so it can be passed around (and its fields named) before
 * the server starts.
 */
export function useLoopbackServer<T extends { close(): Promise<void> }>(
  what: string,
  start: () => Promise<T>,
): T {
  let running: T | undefined;
  beforeAll(async () => {
    running = await start();
  });
  afterAll(async () => {
    await running?.close();
  });
  return new Proxy({} as T, {
    get(_target, key) {
      if (key === "then") return undefined; // not a promise: `await` on it must not start anything
      if (running === undefined) throw new Error(`the ${what} runs only inside this file's tests`);
      const value = Reflect.get(running, key);
      return typeof value === "function" ? value.bind(running) : value;
    },
  });
}
