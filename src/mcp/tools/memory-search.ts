import { z } from "zod";
import { scopeToOptions } from "../../core/scope.js";
import { scopedFilters } from "../../edge/call-scope.js";
import type { Filters } from "../../filters/filter.js";
import type { MemoryItem } from "../../memory/types.js";
import type { NoteResult } from "../../sleep/workspace-search.js";
import { clip, percent, plural, tags } from "../render.js";
import { scopeParams } from "../scope-params.js";
import { defineTool } from "../tool.js";
import { categoriesParam, categoryFilter, filtersParam } from "./filter-params.js";

export const memorySearchTool = defineTool({
  name: "memory_search",
  title: "Search memories",
  description:
    "Search long-term memory for facts relevant to a question or task (hybrid: meaning, keywords and " +
    "names). Use it before answering anything that may depend on what you were told earlier: the " +
    "user's preferences, decisions, projects, people, rules. Results come ranked with a score and an id " +
    "(pass the id to memory_get, memory_update or memory_delete). Searches only the given scope: " +
    "the server's default user unless you pass user_id / agent_id / app_id / run_id. When the server has " +
    "a notes workspace, matching snippets of its Markdown notes come too, each with its path#Lstart-Lend " +
    "(pass it to memory_get as path).",
  input: {
    query: z.string().min(1).describe("What to look for, in natural language."),
    limit: z.number().int().min(1).max(100).optional().describe("How many results at most (default 10)."),
    categories: categoriesParam,
    filters: filtersParam,
    ...scopeParams,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, call) {
    const scope = call.scope(args);
    const extra = [categoryFilter(args.categories), args.filters];
    const topK = args.limit ?? 10;
    if (call.workspace !== undefined) {
      // The workspace adds the call's scope itself: only the other filters go along.
      const parts = extra.filter(
        (each): each is Filters => each !== undefined && Object.keys(each).length > 0,
      );
      const found = await call.shown(
        await call.memory
          .workspace(call.workspace, {
            ...scopeToOptions(scope.scope),
            ...(call.sleepSettings === undefined ? {} : { settings: call.sleepSettings }),
          })
          .search(args.query, { ...(parts.length === 0 ? {} : { filters: { AND: parts } }), topK }),
      );
      const text = [renderResults(found.results), "", renderNotes(found.notes)].join("\n");
      return { text, data: { scope: scope.scope, results: found.results, notes: found.notes } };
    }
    const { results } = await call.shown(
      await call.memory.search(args.query, { filters: scopedFilters(scope, extra), topK }),
    );
    return { text: renderResults(results), data: { scope: scope.scope, results } };
  },
});

function renderResults(results: readonly MemoryItem[]): string {
  if (results.length === 0) return "No relevant memories found.";
  return [
    `Found ${plural(results.length, "memory", "memories")}:`,
    "",
    ...results.map(
      (item, i) =>
        `${i + 1}. ${clip(item.memory)}${tags(item)} (score: ${percent(item.score)}, id: ${item.id})`,
    ),
  ].join("\n");
}

function renderNotes(notes: readonly NoteResult[]): string {
  if (notes.length === 0) return "No matching notes.";
  return [
    `Found ${plural(notes.length, "note snippet")}:`,
    "",
    ...notes.map(
      (note, i) => `${i + 1}. ${clip(note.snippet)} (score: ${percent(note.score)}, path: ${note.address})`,
    ),
  ].join("\n");
}
