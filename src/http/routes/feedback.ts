/**
 * `POST /v1/feedback/` (MemoryClient's `feedback`): a person's verdict on one memory — `POSITIVE`,
 * `NEGATIVE` or `VERY_NEGATIVE`, with a reason — kept on the memory as `metadata.feedback` and
 * `metadata.feedback_reason` (its history keeps each change), where a person reviewing memories
 * sees it. `feedback: null` clears it. Only a memory in the caller's scope takes feedback.
 *
 * @module
 */

import type { Hono } from "hono";
import { LucidError } from "../../errors.js";
import { stringField } from "../body-fields.js";
import { readBody } from "../read-body.js";
import { findInScope } from "../request-scope.js";
import type { RestDeps, RestEnv } from "../rest-env.js";

const FEEDBACK = ["POSITIVE", "NEGATIVE", "VERY_NEGATIVE"] as const;

export function feedbackRoutes(app: Hono<RestEnv>, deps: RestDeps): void {
  app.post("/v1/feedback", async (c) => {
    const body = await readBody(c, deps);
    const memoryId = stringField(body, "memory_id");
    if (memoryId === undefined) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        'memory_id is required: {"memory_id": "…", "feedback": "POSITIVE" | "NEGATIVE" | "VERY_NEGATIVE", "feedback_reason": "…"}.',
      );
    }
    const feedback = body.feedback ?? null;
    if (feedback !== null && !FEEDBACK.includes(feedback as (typeof FEEDBACK)[number])) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        `feedback must be ${FEEDBACK.join(", ")} or null, got ${JSON.stringify(feedback)}.`,
        { details: { field: "feedback" } },
      );
    }
    const reason = stringField(body, "feedback_reason") ?? null;
    await findInScope(deps, c.get("caller"), memoryId);
    await deps.memory.update(memoryId, {
      metadata: { feedback, feedback_reason: feedback === null ? null : reason },
    });
    return c.json({
      message: feedback === null ? "Feedback cleared." : "Feedback recorded.",
      memory_id: memoryId,
      feedback,
      feedback_reason: feedback === null ? null : reason,
    });
  });
}
