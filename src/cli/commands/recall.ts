import { LucidError } from "../../errors.js";
import type { RecallCallOptions } from "../../sdk/recall.js";
import { integerFlag, numberFlag } from "../args/flag-values.js";
import { defineCommand } from "../command.js";
import { readText } from "../io.js";
import { chosenWorkspaceDir } from "../sleep/open-workspace.js";
import { readHookInput } from "./hook-input.js";

export const recallCommand = defineCommand({
  name: "recall",
  summary: "Print the memories to inject before a turn, as a <recalled-memories> block",
  args: [{ name: "query", required: false, description: "the user's message (or --hook: read from stdin)" }],
  flags: {
    budget: { type: "string", valueHint: "N", description: "tokens the block may take (default 1500)" },
    max: { type: "string", valueHint: "N", description: "memories at most (default 15)" },
    threshold: { type: "string", valueHint: "T", description: "least search score (default 0.2)" },
    notes: { type: "string", valueHint: "N", description: "workspace note snippets at most (default 3)" },
    workspace: {
      type: "string",
      valueHint: "DIR",
      description: "add DIR's best note snippets (default sleep.workspace), recording recalls for sleep",
    },
    hook: {
      type: "boolean",
      description:
        "read a hook's JSON from stdin (Claude Code's UserPromptSubmit: the prompt) and print the block",
    },
  },
  scoped: true,
  examples: [
    'lucid recall "plan the Kyoto trip" --user ana',
    'lucid recall "what editor do I use?" --user ana --json | jq .memories',
    "lucid recall --hook --user ana   # in a UserPromptSubmit hook: stdin is the hook's JSON",
  ],
  notes: [
    "Ranked as Mem0's OpenClaw recall: category order (identity, configuration, rule, preference…), " +
      "then importance, then score; identity and configuration memories are always included.",
  ],
  async run(context) {
    const { flags } = context;
    const hook = flags.hook === true ? await readHookInput(await readText(context.io.stdin)) : undefined;
    const query = hook?.prompt ?? context.args[0];
    if (query === undefined) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        'recall needs the query: lucid recall "…", or --hook with the hook\'s JSON on stdin.',
      );
    }
    const tokenBudget = integerFlag(flags.budget, "budget", "recall");
    const maxMemories = integerFlag(flags.max, "max", "recall");
    const threshold = numberFlag(flags.threshold, "threshold", "recall");
    const maxNotes = integerFlag(flags.notes, "notes", "recall");
    const memory = await context.memory();
    const dir = await chosenWorkspaceDir(context, flags.workspace);
    const options: RecallCallOptions = {
      ...(await context.scope()),
      ...(tokenBudget === undefined ? {} : { tokenBudget }),
      ...(maxMemories === undefined ? {} : { maxMemories }),
      ...(threshold === undefined ? {} : { threshold }),
      ...(maxNotes === undefined ? {} : { maxNotes }),
      ...(dir === undefined ? {} : { workspace: memory.workspace(dir) }),
    };
    const recalled = await context.shown(await memory.recall(query, options));
    // A hook's stdout goes into the prompt: when nothing is recalled it adds nothing (not a
    // "No stored memories found" block before every message of a new user).
    const empty = recalled.memories.length === 0 && recalled.notes.length === 0;
    return { json: { ...recalled }, render: () => (hook !== undefined && empty ? "" : recalled.text) };
  },
});
