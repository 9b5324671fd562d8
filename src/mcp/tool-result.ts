/**
 * The one mapping from failures to MCP tool errors: every error (a `LucidError`, bad arguments, a
 * bug) becomes `isError: true` with `CODE: message` as text and `{ error: { code, message } }` as
 * structured content, so a model can read it and a client can branch on the code. Nothing a client
 * sends can make the server throw.
 *
 * @module
 */

import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { z } from "zod";
import { reportError } from "../edge/error-report.js";
import { LucidError } from "../errors.js";
import type { ToolReply } from "./tool.js";

/** A successful reply as an MCP result. */
export function replyResult(reply: ToolReply): CallToolResult {
  return { content: [{ type: "text", text: reply.text }], structuredContent: reply.data };
}

/**
 * Any failure as an MCP tool error, with the code and message the CLI would print for it (the one
 * `reportError` of every edge): errors that are not `LucidError`s are bugs, `INTERNAL`.
 */
export function errorResult(error: unknown): CallToolResult {
  const { code, message, details } = reportError(error);
  return {
    isError: true,
    content: [{ type: "text", text: `${code}: ${message}` }],
    structuredContent: { error: { code, message, ...(details === undefined ? {} : { details }) } },
  };
}

/**
 * Arguments that do not match a tool's schema, as `INVALID_ARGUMENT` naming each bad parameter, with
 * the snake_case name when a model used Mem0's camelCase one (`userId` → `user_id`).
 */
export function invalidArguments(tool: string, error: z.ZodError, known: readonly string[]): LucidError {
  const problems = error.issues.map((issue) => {
    if (issue.code === "unrecognized_keys") {
      return issue.keys
        .map((key) => {
          const snake = key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
          const hint = snake !== key && known.includes(snake) ? ` (did you mean "${snake}"?)` : "";
          return `unknown parameter "${key}"${hint}`;
        })
        .join("; ");
    }
    const where = issue.path.length === 0 ? "arguments" : issue.path.join(".");
    return `${where}: ${issue.message}`;
  });
  return new LucidError(
    "INVALID_ARGUMENT",
    `Invalid arguments for ${tool}: ${problems.join("; ")}. Parameters: ${known.join(", ")}.`,
    { details: { tool } },
  );
}
