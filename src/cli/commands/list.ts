import { integerFlag, jsonObjectFlag } from "../args/flag-values.js";
import { defineCommand } from "../command.js";
import { terminalWidth } from "../io.js";
import { plural } from "../output/format.js";
import { renderMemoryList } from "../output/render-memories.js";

export const listCommand = defineCommand({
  name: "list",
  summary: "List a scope's memories, newest first, a page at a time",
  args: [],
  flags: {
    page: { type: "string", valueHint: "N", description: "page number, from 1 (default 1)" },
    "page-size": { type: "string", valueHint: "N", description: "memories per page (default 100)" },
    filters: { type: "string", valueHint: "JSON", description: `Mem0 filters, e.g. '{"pinned":true}'` },
    "show-expired": { type: "boolean", description: "include memories past their expiry" },
  },
  scoped: true,
  examples: [
    "lucid list --user alice",
    "lucid list --user alice --page 2 --page-size 20",
    `lucid list --app billing --filters '{"category":"decision","created_at":{"gte":"2026-11"}}'`,
    "lucid list --user alice --show-expired --json",
  ],
  async run(context) {
    const { flags } = context;
    const page = integerFlag(flags.page, "page", "list");
    const pageSize = integerFlag(flags["page-size"], "page-size", "list");
    const filters = jsonObjectFlag(flags.filters, "filters", "list");
    const scope = await context.scope({ filters });
    const memory = await context.memory();
    const result = await context.shown(
      await memory.getAll({
        ...scope,
        ...(filters === undefined ? {} : { filters }),
        ...(page === undefined ? {} : { page }),
        ...(pageSize === undefined ? {} : { pageSize }),
        showExpired: flags["show-expired"],
      }),
    );
    return {
      json: { ...result },
      render() {
        const { results, total } = result;
        if (results.length === 0) {
          return total === 0
            ? "No memories found."
            : `No memories on page ${result.page} (${plural(total, "memory", "memories")} in all).`;
        }
        const first = (result.page - 1) * result.pageSize + 1;
        const pages = Math.ceil(total / result.pageSize);
        const count = plural(total, "memory", "memories");
        const footer =
          pages === 1
            ? count
            : `${first}–${first + results.length - 1} of ${count} · page ${result.page} of ${pages}` +
              (result.hasMore ? ` · next: --page ${result.page + 1}` : "");
        const width = terminalWidth(context.io.stdout);
        return `${renderMemoryList(results, { style: context.style, width })}\n${context.style.dim(footer)}`;
      },
    };
  },
});
