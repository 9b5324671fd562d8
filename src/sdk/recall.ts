/**
 * `memory.recall(query)`: the block a host injects before a turn — the scope's memories ranked and
 * budgeted (`memory/recall.ts`), then, with a workspace, its best note snippets in what the
 * memories left of the budget (their hits recorded as recall signals, for sleep). Here, at the
 * composition root, because it joins two services (memory's recall and sleep's notes).
 *
 * @module
 */

import type { MemoryContext } from "../core/context.js";
import type { Scope } from "../core/scope.js";
import { LucidError } from "../errors.js";
import type { RecallOptions } from "../memory/recall.js";
import {
  estimateTokens,
  RECALL_DEFAULTS,
  type RecalledMemory,
  type RecalledNote,
  renderRecallBlock,
  selectNotes,
} from "../memory/recall-block.js";
import type { Workspace } from "./workspace.js";

export interface RecallCallOptions extends RecallOptions {
  /** A Markdown workspace (`memory.workspace(dir)`): its best note snippets join the block. */
  workspace?: Workspace;
  /** Note snippets at most. Default 3. */
  maxNotes?: number;
  /** Record the note hits as recall signals for sleep. Default true. */
  recordNotes?: boolean;
}

export interface RecallResult {
  /** The `<recalled-memories>` block to inject. */
  readonly text: string;
  readonly memories: RecalledMemory[];
  readonly notes: RecalledNote[];
  /** Estimated tokens of the memories and notes (~4 characters a token). */
  readonly tokens: number;
  /** Memories considered before ranking and budgeting. */
  readonly considered: number;
  /** Short-term note hits recorded as recall signals. */
  readonly recorded: number;
}

export async function recall(
  context: MemoryContext,
  query: string,
  options: RecallCallOptions = {},
): Promise<RecallResult> {
  const { workspace, maxNotes = RECALL_DEFAULTS.maxNotes, recordNotes, ...memoryOptions } = options;
  if (!Number.isInteger(maxNotes) || maxNotes < 0) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `recall maxNotes must be a whole number of 0 or more, got ${JSON.stringify(maxNotes)}.`,
    );
  }
  const { recallMemories } = await import("../memory/recall.js");
  const recalled = await recallMemories(context, query, memoryOptions);
  let notes: RecalledNote[] = [];
  let recorded = 0;
  const left = recalled.options.tokenBudget - recalled.tokens;
  if (workspace !== undefined && maxNotes > 0 && left > 0 && query.trim() !== "") {
    const found = await workspace.notes(query, {
      topK: maxNotes,
      ...(recordNotes === undefined ? {} : { record: recordNotes }),
    });
    notes = selectNotes(
      found.notes.map((note) => ({ address: note.address, snippet: note.snippet, score: note.score })),
      left,
    );
    recorded = found.recorded;
  }
  const tokens = recalled.tokens + notes.reduce((sum, note) => sum + estimateTokens(note.snippet), 0);
  return {
    text: renderRecallBlock(whoOf(recalled.scope), recalled.memories, notes),
    memories: recalled.memories,
    notes,
    tokens,
    considered: recalled.considered,
    recorded,
  };
}

/** Who the memories are of, as Mem0's block names them: the user, else the agent, app or run. */
function whoOf(scope: Scope): string {
  return scope.user_id ?? scope.agent_id ?? scope.app_id ?? scope.run_id ?? "";
}
