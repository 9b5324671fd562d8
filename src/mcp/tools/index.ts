/**
 * The tool table: every tool the server offers, in the order clients list them. The names and
 * parameters follow Mem0's OpenClaw plugin (`memory_search`, `memory_add`…), with snake_case ids.
 *
 * @module
 */

import type { Tool } from "../tool.js";
import { memoryAddTool } from "./memory-add.js";
import { memoryCaptureTool } from "./memory-capture.js";
import { memoryDeleteTool } from "./memory-delete.js";
import { memoryDreamTool } from "./memory-dream.js";
import { memoryEventListTool } from "./memory-event-list.js";
import { memoryEventStatusTool } from "./memory-event-status.js";
import { memoryGetTool } from "./memory-get.js";
import { memoryHistoryTool } from "./memory-history.js";
import { memoryListTool } from "./memory-list.js";
import { memoryRecallTool } from "./memory-recall.js";
import { memorySearchTool } from "./memory-search.js";
import { memorySessionTool } from "./memory-session.js";
import { memorySleepEventsTool } from "./memory-sleep-events.js";
import { memoryUpdateTool } from "./memory-update.js";

export const TOOLS: readonly Tool[] = [
  memorySearchTool,
  memoryAddTool,
  memoryGetTool,
  memoryListTool,
  memoryUpdateTool,
  memoryDeleteTool,
  memoryHistoryTool,
  memoryEventListTool,
  memoryEventStatusTool,
  memoryDreamTool,
  memorySleepEventsTool,
  memoryRecallTool,
  memoryCaptureTool,
  memorySessionTool,
];
