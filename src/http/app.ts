/**
 * The REST API as a Hono app: Mem0's platform routes (integrations.md §1.2), each with and without
 * its trailing slash, and Lucid's own under `/lucid/v1/` (dream, sleep, scan, export / import),
 * behind the auth step, with one error reply for every failure; the web UI and `/openapi.json`
 * in front of it.
 *
 * @module
 */

import { Hono } from "hono";
import { type AuthOptions, authenticate } from "./auth.js";
import { openApiRoute } from "./openapi.js";
import { replyError } from "./reply-error.js";
import type { RestDeps, RestEnv } from "./rest-env.js";
import { addRoutes } from "./routes/add.js";
import { batchRoutes } from "./routes/batch.js";
import { entityRoutes } from "./routes/entities.js";
import { eventRoutes } from "./routes/events.js";
import { feedbackRoutes } from "./routes/feedback.js";
import { listRoutes } from "./routes/list.js";
import { dreamRoutes } from "./routes/lucid-dream.js";
import { sleepRoutes } from "./routes/lucid-sleep.js";
import { storeRoutes } from "./routes/lucid-store.js";
import { memoryByIdRoutes } from "./routes/memory-by-id.js";
import { projectRoutes } from "./routes/project.js";
import { searchRoutes } from "./routes/search.js";
import { type UiAssets, uiRoutes } from "./ui-assets.js";

/**
 * @example
 * const app = createRestApp(deps, { host: "127.0.0.1", keys: watchKeys(keysFileOf(home)) });
 */
export function createRestApp(deps: RestDeps, auth: AuthOptions, ui: UiAssets = new Map()): Hono<RestEnv> {
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
  // Before the auth step: the page, its files and the API's description hold no memories.
  uiRoutes(app, ui);
  openApiRoute(app);
  app.use(authenticate(auth));
  projectRoutes(app, deps);
  addRoutes(app, deps);
  searchRoutes(app, deps);
  listRoutes(app, deps);
  memoryByIdRoutes(app, deps);
  batchRoutes(app, deps);
  entityRoutes(app, deps);
  eventRoutes(app, deps);
  feedbackRoutes(app, deps);
  storeRoutes(app, deps);
  dreamRoutes(app, deps);
  sleepRoutes(app, deps);
  return app;
}
