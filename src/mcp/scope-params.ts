/**
 * The scope parameters every tool takes, described for the model.
 *
 * @module
 */

import { z } from "zod";

export const scopeParams = {
  user_id: z
    .string()
    .min(1)
    .optional()
    .describe("Whose memories: the user id. Leave out to use the server's default user."),
  agent_id: z
    .string()
    .min(1)
    .optional()
    .describe("Narrow to one agent's memories. Leave out to use the server's default agent, if any."),
  app_id: z
    .string()
    .min(1)
    .optional()
    .describe("Narrow to one application's memories. Leave out to use the server's default app, if any."),
  run_id: z
    .string()
    .min(1)
    .optional()
    .describe("Narrow to one run or conversation (short-lived memories). Usually left out."),
};
