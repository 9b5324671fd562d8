import { formatScope, scopeOfRow } from "../../core/scope.js";
import { jsonObjectFlag } from "../args/flag-values.js";
import { scopeAndFilters } from "../args/scope-filters.js";
import { defineCommand } from "../command.js";
import { terminalWidth } from "../io.js";
import { plural } from "../output/format.js";
import { renderTable } from "../output/table.js";

export const scanCommand = defineCommand({
  name: "scan",
  summary: "Audit stored memories for credentials (exit 1 when any is found)",
  args: [],
  flags: {
    filters: { type: "string", valueHint: "JSON", description: "only memories matching these filters" },
  },
  scoped: true,
  examples: ["lucid scan", "lucid scan --user alice", "lucid scan --json | jq '.findings[].kind'"],
  notes: [
    "Scans every memory (expired ones too) unless scope flags or --filters narrow it; the default scope from " +
      "LUCID_USER_ID or the config is not applied, so a CI check covers the whole store.",
    "Each finding shows the memory id, the kind of credential and a masked preview (its first 4 characters), " +
      "never the value. The exit code is 1 when anything is found, for use in CI.",
  ],
  async run(context) {
    const filters = scopeAndFilters(
      await context.scope({ defaults: false }),
      jsonObjectFlag(context.flags.filters, "filters", "scan"),
    );
    const memory = await context.memory({ allowEmbedderChange: true });
    const { scanned, findings } = await memory.scan(filters === undefined ? {} : { filters });
    const summary = `Scanned ${plural(scanned, "memory", "memories")}: ${findings.length === 0 ? "no credentials found" : plural(findings.length, "credential")}`;
    const style = context.style;
    return {
      json: { scanned, findings },
      ...(findings.length === 0
        ? {}
        : {
            error: {
              code: "SECRETS_FOUND",
              message: `${plural(findings.length, "credential")} found in stored memories. Delete or update them (lucid update <id> <text>).`,
            },
          }),
      render: () => {
        if (findings.length === 0) return style.green(summary);
        const table = renderTable(
          [
            { header: "ID" },
            { header: "WHERE" },
            { header: "KIND" },
            { header: "PREVIEW" },
            { header: "SCOPE", droppable: true },
          ],
          findings.map((finding) => [
            finding.id,
            finding.field,
            { text: finding.kind, paint: style.yellow },
            finding.preview,
            formatScope(scopeOfRow(finding)),
          ]),
          { style, width: terminalWidth(context.io.stdout) },
        );
        return `${table}\n${style.red(summary)}`;
      },
    };
  },
});
