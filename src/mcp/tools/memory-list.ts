import { z } from "zod";
import { scopedFilters } from "../../edge/call-scope.js";
import { clip, plural, tags } from "../render.js";
import { scopeParams } from "../scope-params.js";
import { defineTool } from "../tool.js";
import { categoriesParam, categoryFilter, filtersParam } from "./filter-params.js";

const DEFAULT_PAGE_SIZE = 50;

export const memoryListTool = defineTool({
  name: "memory_list",
  title: "List memories",
  description:
    "List the memories of a scope, newest first, a page at a time, with the total count. Use it to " +
    "review everything stored (to search for something specific, use memory_search). When more pages " +
    "exist the reply says so: ask for the next `page`. Lists only the given scope: the server's default " +
    "user unless you pass user_id / agent_id / app_id / run_id.",
  input: {
    page: z.number().int().min(1).optional().describe("1-based page number (default 1)."),
    page_size: z
      .number()
      .int()
      .min(1)
      .max(500)
      .optional()
      .describe(`Memories per page (default ${DEFAULT_PAGE_SIZE}, at most 500).`),
    categories: categoriesParam,
    filters: filtersParam,
    ...scopeParams,
  },
  annotations: { readOnlyHint: true, openWorldHint: false },
  async run(args, call) {
    const scope = call.scope(args);
    const page = await call.shown(
      await call.memory.getAll({
        filters: scopedFilters(scope, [categoryFilter(args.categories), args.filters]),
        page: args.page ?? 1,
        pageSize: args.page_size ?? DEFAULT_PAGE_SIZE,
      }),
    );
    const first = (page.page - 1) * page.pageSize + 1;
    const last = first + page.results.length - 1;
    const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
    const head =
      page.total === 0
        ? `No memories stored yet for ${scope.label}.`
        : page.results.length === 0
          ? `Page ${page.page} is past the end: ${plural(page.total, "memory", "memories")} in ${pages} ${pages === 1 ? "page" : "pages"}.`
          : `${plural(page.total, "memory", "memories")} for ${scope.label}; showing ${first}–${last} (page ${page.page} of ${pages}):`;
    const lines = page.results.map(
      (item, i) => `${first + i}. ${clip(item.memory)}${tags(item)} (id: ${item.id})`,
    );
    if (page.hasMore) lines.push("", `More: call memory_list with page ${page.page + 1}.`);
    return {
      text: [head, ...(lines.length > 0 ? ["", ...lines] : [])].join("\n"),
      data: { scope: scope.scope, ...page },
    };
  },
});
