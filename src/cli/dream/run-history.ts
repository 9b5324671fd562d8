/**
 * `lucid dream runs`, `show <run-id>` and `undo <run-id>`: what dreams did, and taking it back.
 *
 * @module
 */

import type { ScopeOptions } from "../../core/scope.js";
import type { SecretsScrubbed } from "../../dream/apply/apply-plan.js";
import type { Memory } from "../../sdk/memory.js";
import type { CommandContext, CommandOutput, FlagsDef } from "../command.js";
import { formatDate, oneLine } from "../output/format.js";
import type { Style } from "../output/style.js";
import { renderTable } from "../output/table.js";

export async function listRuns(
  memory: Memory,
  scope: ScopeOptions | undefined,
  style: Style,
): Promise<CommandOutput> {
  const runs = await memory.dream.runs(scope);
  return {
    json: { runs: runs.map(({ plan: _plan, ...run }) => run) },
    render() {
      if (runs.length === 0) return style.dim("No dream runs yet.");
      return renderTable(
        [
          { header: "RUN" },
          { header: "SCOPE" },
          { header: "MODE" },
          { header: "WHEN" },
          { header: "CHANGES" },
          { header: "" },
        ],
        runs.map((run) => {
          const { counts } = run.outcome;
          return [
            run.id,
            run.scopeKey,
            run.mode,
            formatDate(run.committedAt),
            `merged ${counts.merged}, pruned ${counts.pruned}, resolved ${counts.conflictsResolved}, rewritten ${counts.rewritten}`,
            run.undoneAt === null ? "" : { text: "undone", paint: style.yellow },
          ];
        }),
        { style },
      );
    },
  };
}

export async function showRun(
  memory: Memory,
  runId: string,
  context: Pick<CommandContext<FlagsDef>, "style" | "shown">,
): Promise<CommandOutput> {
  const { style } = context;
  const shown = await memory.dream.show(runId);
  const touched = await context.shown(
    shown.memories.map((entry) => ({
      memoryId: entry.memoryId,
      change: entry.before === null ? "created" : entry.after === null ? "deleted" : "changed",
      before: entry.before?.row.text ?? null,
    })),
  );
  const run = await context.shown(shown.run);
  return {
    json: { run, memories: touched },
    render() {
      const { counts, secrets } = run.outcome;
      const lines = [
        `${style.bold(run.id)}  ${run.scopeKey}  ${run.mode}  ${formatDate(run.committedAt)}${run.undoneAt === null ? "" : style.yellow(`  undone ${formatDate(run.undoneAt)}`)}`,
        `merged ${counts.merged}, pruned ${counts.pruned}, conflicts resolved ${counts.conflictsResolved}, skipped ${counts.skipped}, rewritten ${counts.rewritten}`,
        ...(secrets === undefined || secrets.memories === 0 ? [] : [describeSecrets(secrets)]),
        "",
        ...touched.map(
          (entry) =>
            `  ${entry.change.padEnd(8)} ${entry.memoryId}${entry.before === null ? "" : `  was: ${oneLine(entry.before)}`}`,
        ),
      ];
      return lines.join("\n");
    },
  };
}

function describeSecrets(secrets: SecretsScrubbed): string {
  const where = `credentials of ${secrets.memories} ${secrets.memories === 1 ? "memory" : "memories"} scrubbed from ${secrets.history} history rows and ${secrets.messages} messages`;
  return secrets.purged
    ? `${where}, and purged from ${secrets.preimages} preimages: undo restores them without the credentials`
    : `${where}; this run's preimages keep them, so undo restores them exactly`;
}

export async function undo(
  memory: Memory,
  runId: string,
  force: boolean,
  style: Style,
): Promise<CommandOutput> {
  const result = await memory.dream.undo(runId, { force });
  return {
    json: { ...result },
    render: () =>
      [
        `${style.green("Undone")} ${runId}: ${result.restored} restored, ${result.removed} removed.`,
        ...result.keptDuplicates.map(
          ({ id, duplicateOf }) =>
            `  not restored ${id}: its text was added again since, as ${duplicateOf} (kept: one memory per text)`,
        ),
        ...result.keptOtherScope.map(
          (id) => `  not restored ${id}: the id now holds a memory of another scope (left as it is)`,
        ),
      ].join("\n"),
  };
}
