/**
 * The REST API as a Hono app: Mem0's platform routes (integrations.md §1.2), each with and without
 * its trailing slash, behind the auth step, with one error reply for every failure.
 *
 * @module
 */

import { Hono } from "hono";
import { type AuthOptions, authenticate } from "./auth.js";
import { replyError } from "./reply-error.js";
import type { RestDeps, RestEnv } from "./rest-env.js";
import { addRoutes } from "./routes/add.js";
import { batchRoutes } from "./routes/batch.js";
import { entityRoutes } from "./routes/entities.js";
import { eventRoutes } from "./routes/events.js";
import { listRoutes } from "./routes/list.js";
import { memoryByIdRoutes } from "./routes/memory-by-id.js";
import { projectRoutes } from "./routes/project.js";
import { searchRoutes } from "./routes/search.js";

/**
 * @example
 * const app = createRestApp(deps, { host: "127.0.0.1", keys: watchKeys(keysFileOf(home)) });
 */
export function createRestApp(deps: RestDeps, auth: AuthOptions): Hono<RestEnv> {
  // strict: false serves `/v1/ping` as `/v1/ping/`: MemoryClient adds the slash, curl users may not.
  const app = new Hono<RestEnv>({ strict: false });
  app.onError((error, c) => replyError(c, error));
  app.notFound((c) =>
    c.json(
      {
        detail: `Not found: ${c.req.method} ${new URL(c.req.url).pathname} is not a route of this server (see the README's REST API route table).`,
        code: "NOT_FOUND",
      },
      404,
    ),
  );
  app.use(authenticate(auth));
  projectRoutes(app, deps);
  addRoutes(app, deps);
  searchRoutes(app, deps);
  listRoutes(app, deps);
  memoryByIdRoutes(app, deps);
  batchRoutes(app, deps);
  entityRoutes(app, deps);
  eventRoutes(app, deps);
  return app;
}
