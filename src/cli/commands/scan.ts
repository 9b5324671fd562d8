import { formatScope, scopeOfRow } from "../../core/scope.js";
import { jsonObjectFlag } from "../args/flag-values.js";
import { scopeAndFilters } from "../args/scope-filters.js";
import { defineCommand } from "../command.js";
import { terminalWidth } from "../io.js";
import { plural } from "../output/format.js";
import { renderTable } from "../output/table.js";

export const scanCommand = defineCommand({
  name: "scan",
  summary: "Audit stored memories for credentials and possible injections (exit 1 when any is found)",
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
    "A possible injection is a memory that reads as an instruction to the agent (about tools, credentials, links, " +
      "other users, or overriding its instructions); it is listed with the judge's score and the words it rested " +
      "on, and never changed: delete it (lucid delete <id>) or let lucid dream ask.",
  ],
  async run(context) {
    const filters = scopeAndFilters(
      await context.scope({ defaults: false }),
      jsonObjectFlag(context.flags.filters, "filters", "scan"),
    );
    const memory = await context.memory({ allowEmbedderChange: true });
    const { scanned, findings, injections } = await memory.scan(filters === undefined ? {} : { filters });
    const found = [
      findings.length === 0 ? "no credentials found" : plural(findings.length, "credential"),
      ...(injections.length === 0 ? [] : [plural(injections.length, "possible injection")]),
    ];
    const summary = `Scanned ${plural(scanned, "memory", "memories")}: ${found.join(", ")}`;
    const style = context.style;
    const width = terminalWidth(context.io.stdout);
    const error =
      findings.length > 0
        ? {
            code: "SECRETS_FOUND" as const,
            message: `${plural(findings.length, "credential")} found in stored memories. Delete or update them (lucid update <id> <text>).`,
          }
        : injections.length > 0
          ? {
              code: "INJECTIONS_FOUND" as const,
              message: `${plural(injections.length, "memory reads", "memories read")} as instructions to the agent. Review them: lucid dream asks about each, or lucid delete <id>.`,
            }
          : undefined;
    return {
      json: { scanned, findings, injections },
      ...(error === undefined ? {} : { error }),
      render: () => {
        if (error === undefined) return style.green(summary);
        const flagged =
          injections.length === 0
            ? ""
            : `${renderTable(
                [
                  { header: "ID" },
                  { header: "POSSIBLE INJECTION" },
                  { header: "SCORE" },
                  { header: "SCOPE", droppable: true },
                ],
                injections.map((injection) => [
                  injection.id,
                  { text: injection.cues.join(", "), paint: style.yellow },
                  injection.score.toFixed(2),
                  formatScope(scopeOfRow(injection)),
                ]),
                { style, width },
              )}\n`;
        if (findings.length === 0) return `${flagged}${style.red(summary)}`;
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
          { style, width },
        );
        return `${table}\n${flagged}${style.red(summary)}`;
      },
    };
  },
});
