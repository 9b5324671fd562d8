import { type MemoryItem, SEARCH_MODES } from "../../memory/types.js";
import { choiceFlag, integerFlag, jsonObjectFlag, numberFlag } from "../args/flag-values.js";
import { defineCommand } from "../command.js";
import { terminalWidth } from "../io.js";
import { renderScoredList } from "../output/render-memories.js";
import { openWorkspace } from "../sleep/open-workspace.js";
import { renderNoteHits } from "../sleep/render-sleep.js";

export const searchCommand = defineCommand({
  name: "search",
  summary: "Find memories by meaning and keywords (hybrid search)",
  args: [{ name: "query", required: true, description: "what to look for, in words" }],
  flags: {
    limit: { type: "string", valueHint: "N", description: "at most N results (default 20)" },
    threshold: { type: "string", valueHint: "T", description: "minimum score from 0 to 1 (default 0.1)" },
    filters: { type: "string", valueHint: "JSON", description: `Mem0 filters, e.g. '{"category":"rule"}'` },
    explain: { type: "boolean", description: "show how each score was made (semantic, keyword, entity)" },
    "show-expired": { type: "boolean", description: "include memories past their expiry" },
    mode: { type: "string", valueHint: "MODE", description: "hybrid (default), dense or keyword" },
    workspace: {
      type: "string",
      valueHint: "DIR",
      description: "also search DIR's Markdown notes, recording recalls of daily notes for `lucid sleep`",
    },
  },
  scoped: true,
  examples: [
    'lucid search "what can alice not eat?" --user alice',
    'lucid search "deploy process" --agent ops --limit 5 --explain',
    `lucid search "deadlines" --user alice --filters '{"category":{"in":["project","decision"]}}'`,
    'lucid search "where do we stay in Kyoto?" --workspace ~/.openclaw/workspace',
    'lucid search "editor" --user alice --json | jq -r \'.results[] | "\\(.score) \\(.memory)"\'',
  ],
  notes: ["Scores are shown as percentages, as in Mem0's CLI; --json gives the exact number from 0 to 1."],
  async run(context) {
    const { flags } = context;
    const topK = integerFlag(flags.limit, "limit", "search");
    const threshold = numberFlag(flags.threshold, "threshold", "search");
    const filters = jsonObjectFlag(flags.filters, "filters", "search");
    const mode = choiceFlag(flags.mode, "mode", SEARCH_MODES, "search");
    const query = context.args[0] as string;
    const options = {
      ...(filters === undefined ? {} : { filters }),
      ...(topK === undefined ? {} : { topK }),
      ...(threshold === undefined ? {} : { threshold }),
      ...(mode === undefined ? {} : { mode }),
      explain: flags.explain,
      showExpired: flags["show-expired"],
    };
    const width = terminalWidth(context.io.stdout);
    const memoriesText = (results: MemoryItem[]) =>
      results.length === 0
        ? "No memories found."
        : renderScoredList(results, { style: context.style, width, explain: flags.explain });
    if (flags.workspace !== undefined) {
      // The workspace's scope (the call's, else agent_id=main) is the scope of its long-term memories.
      const workspace = await openWorkspace(context, { workspace: flags.workspace }, "search");
      const found = await context.shown(await workspace.search(query, options));
      return {
        json: { results: found.results, notes: found.notes, recorded: found.recorded },
        // Two lists, each named: "No memories found." above a table of notes would read as "nothing".
        render: () =>
          [
            found.results.length === 0
              ? "No long-term memories matched (the workspace's notes below)."
              : memoriesText(found.results),
            "",
            renderNoteHits(found.notes, { style: context.style, width }),
          ].join("\n"),
      };
    }
    const scope = await context.scope({ filters });
    const memory = await context.memory();
    const { results } = await context.shown(await memory.search(query, { ...scope, ...options }));
    return { json: { results }, render: () => memoriesText(results) };
  },
});
