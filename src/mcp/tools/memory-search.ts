import { z } from "zod";
import { scopedFilters } from "../../edge/call-scope.js";
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
    "the server's default user unless you pass user_id / agent_id / app_id / run_id.",
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
    const { results } = await call.shown(
      await call.memory.search(args.query, {
        filters: scopedFilters(scope, [categoryFilter(args.categories), args.filters]),
        topK: args.limit ?? 10,
      }),
    );
    const text =
      results.length === 0
        ? "No relevant memories found."
        : [
            `Found ${plural(results.length, "memory", "memories")}:`,
            "",
            ...results.map(
              (item, i) =>
                `${i + 1}. ${clip(item.memory)}${tags(item)} (score: ${percent(item.score)}, id: ${item.id})`,
            ),
          ].join("\n");
    return { text, data: { scope: scope.scope, results } };
  },
});
