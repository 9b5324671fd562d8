import { readFile } from "node:fs/promises";
import { resolve } from "node:path";
import { isLucidError, LucidError } from "../../errors.js";
import type { Workspace } from "../../sdk/workspace.js";
import { SWEEP_PHASES, type SweepPhase } from "../../sleep/sleep-sweep.js";
import { integerFlag, numberFlag } from "../args/flag-values.js";
import { type CommandContext, defineCommand, type FlagsDef } from "../command.js";
import { terminalWidth } from "../io.js";
import { plural } from "../output/format.js";
import { importOpenClawConfig } from "../sleep/import-openclaw-config.js";
import { openWorkspace } from "../sleep/open-workspace.js";
import { renderExplanation, renderPromotion, renderSignals, renderStatus } from "../sleep/render-sleep.js";
import { renderSweep } from "../sleep/render-sweep.js";
import { UsageError } from "../usage-error.js";

const ACTIONS = [
  "preview",
  "promote",
  "explain",
  "status",
  "rollback",
  "record",
  "import-openclaw",
  "signals",
  "index",
  "backfill",
] as const;
type Action = (typeof ACTIONS)[number] | "sweep";

export const sleepCommand = defineCommand({
  name: "sleep",
  summary:
    "Sweep a workspace's notes (light, REM, deep): stage, reflect, promote into MEMORY.md, keep the Dream Diary",
  args: [
    {
      name: "action",
      required: false,
      description: `none: a full sweep; ${ACTIONS.join(" | ")}`,
    },
    {
      name: "target",
      required: false,
      description: "explain: path#Lx-Ly or a recall key; rollback: the run (default: the latest)",
    },
  ],
  flags: {
    workspace: {
      type: "string",
      valueHint: "DIR",
      description: "the workspace (default: sleep.workspace in the config, else ~/.openclaw/workspace)",
    },
    apply: {
      type: "boolean",
      description: "promote: write MEMORY.md and long-term memories (default: a preview)",
    },
    now: {
      type: "string",
      valueHint: "ISO",
      description: "the sweep's clock, so runs are reproducible (default: now)",
    },
    limit: { type: "string", valueHint: "N", description: "promote at most N ranges (default 10)" },
    "min-score": { type: "string", valueHint: "S", description: "least score from 0 to 1 (default 0.75)" },
    "min-recall-count": {
      type: "string",
      valueHint: "N",
      description: "least number of recalls (default 3)",
    },
    "min-unique-queries": {
      type: "string",
      valueHint: "N",
      description: "least number of distinct queries (default 3)",
    },
    "include-promoted": { type: "boolean", description: "rank ranges promoted before too" },
    file: {
      type: "string",
      valueHint: "FILE",
      description:
        "record: the search log (JSONL); import-openclaw: the recall store (default memory/.dreams/short-term-recall.json)",
    },
    tz: {
      type: "string",
      valueHint: "ZONE",
      description: "the time zone whose days recalls count in (default: the config's timeZone)",
    },
    force: {
      type: "boolean",
      description:
        "rollback: even over edits made to MEMORY.md since; backfill --rollback: edited entries too",
    },
    phases: {
      type: "string",
      valueHint: "LIST",
      description: "a sweep's phases, comma-separated, in order (default light,rem,deep)",
    },
    every: {
      type: "string",
      valueHint: "CRON",
      description: 'sweep on this cron expression until stopped ("0 3 * * *": every day at 03:00, in --tz)',
    },
    from: { type: "string", valueHint: "DAY", description: "backfill: the first day (YYYY-MM-DD)" },
    to: { type: "string", valueHint: "DAY", description: "backfill: the last day (default: the first)" },
    rollback: { type: "boolean", description: "backfill: remove the diary entries Lucid's backfills wrote" },
    config: {
      type: "string",
      valueHint: "FILE",
      description:
        "import-openclaw: OpenClaw's openclaw.json, whose dreaming settings it merges into lucid.config.json",
    },
  },
  scoped: true,
  examples: [
    "lucid sleep --workspace ~/notes                          # light, REM, deep, then the diary",
    "lucid sleep preview --workspace ~/notes                  # what a sweep would do, writing nothing",
    'lucid sleep --every "0 3 * * *" --tz Europe/Paris        # every night at 03:00, until Ctrl-C',
    "lucid sleep --phases light,rem                           # stage and reflect, promote nothing",
    "lucid sleep backfill --from 2026-01-01 --to 2026-03-31   # diary entries from old notes",
    "lucid sleep promote --workspace ~/notes                 # what would be promoted, and why",
    "lucid sleep promote --workspace ~/notes --apply",
    "lucid sleep explain memory/2026-11-04.md#L3-L5 --workspace ~/notes",
    "lucid sleep status --workspace ~/notes",
    "lucid sleep rollback --workspace ~/notes                 # the latest run",
    "lucid sleep record --workspace ~/notes --file searches.jsonl --tz Europe/Paris",
    "lucid sleep import-openclaw                               # ~/.openclaw/workspace's recall store",
    "lucid sleep signals --workspace ~/notes --json > signals.json",
  ],
  notes: [
    "A workspace is a folder with MEMORY.md and daily notes memory/YYYY-MM-DD.md (or memory/YYYY-MM-DD-slug.md). " +
      "Every search that returns a snippet of a daily note (`lucid search --workspace`, the MCP server) records a recall; " +
      "`promote` ranks the recalled ranges by six weighted signals behind gates and appends the best to MEMORY.md with " +
      "citations, adding each as a long-term memory of the scope (default agent_id=main).",
    "Every --apply is a run: `lucid sleep rollback [RUN]` restores MEMORY.md byte for byte and removes the run's " +
      "memories; it refuses when MEMORY.md was edited since, unless --force. Hand-written lines are never changed.",
    "One sleeper per workspace at a time, across processes. --json prints each result in full.",
  ],
  async run(context) {
    const { flags, args } = context;
    const action = args[0] ?? "sweep";
    if (action !== "sweep" && !(ACTIONS as readonly string[]).includes(action)) {
      throw new UsageError(
        `unknown sleep action ${JSON.stringify(action)}: use ${ACTIONS.join(", ")}, or none for a sweep.`,
        "sleep",
      );
    }
    if (flags.every !== undefined && action !== "sweep")
      throw new UsageError("--every runs sweeps: give it no action (lucid sleep --every CRON).", "sleep");
    // OpenClaw's settings go into lucid.config.json: no workspace is needed for that.
    if (action === "import-openclaw" && flags.config !== undefined)
      return importOpenClawConfig(context, { config: flags.config, file: flags.file });
    const phases = phasesFlag(flags.phases);
    // A sweep's gates are sleep.phases.deep.* in the config: a flag that would seem to change them is refused.
    const gateFlags = [
      "limit",
      "min-score",
      "min-recall-count",
      "min-unique-queries",
      "include-promoted",
    ] as const;
    const given = gateFlags.filter((name) => flags[name] !== undefined && flags[name] !== false);
    if ((action === "sweep" || action === "preview") && given.length > 0)
      throw new UsageError(
        `--${given[0]} is for \`lucid sleep promote\` and \`explain\`; a sweep uses sleep.phases.deep.* from lucid.config.json.`,
        "sleep",
      );
    const workspace = await openWorkspace(context, flags, "sleep");
    const render = { style: context.style, width: terminalWidth(context.io.stdout) };
    const now = flags.now;
    const rankOptions = () => {
      const limit = integerFlag(flags.limit, "limit", "sleep");
      const minScore = numberFlag(flags["min-score"], "min-score", "sleep");
      const minRecallCount = integerFlag(flags["min-recall-count"], "min-recall-count", "sleep");
      const minUniqueQueries = integerFlag(flags["min-unique-queries"], "min-unique-queries", "sleep");
      return {
        ...(now === undefined ? {} : { now }),
        ...(limit === undefined ? {} : { limit }),
        ...(minScore === undefined ? {} : { minScore }),
        ...(minRecallCount === undefined ? {} : { minRecallCount }),
        ...(minUniqueQueries === undefined ? {} : { minUniqueQueries }),
        ...(flags["include-promoted"] ? { includePromoted: true } : {}),
      };
    };

    switch (action as Action) {
      case "sweep": {
        if (flags.every !== undefined) return sweepEvery(context, workspace, flags.every, flags.tz, phases);
        const result = await workspace.sweep({ ...(now === undefined ? {} : { now }), ...phases });
        const output = { json: { ...result }, render: () => renderSweep(result, render) };
        const failed = result.phases.filter((report) => report.outcome === "failed");
        if (failed.length === 0) return output;
        return {
          ...output,
          error: {
            code: "SLEEP_PHASE_FAILED" as const,
            message: `${plural(failed.length, "phase")} failed (${failed.map((report) => report.phase).join(", ")}); the others ran. The event log has the details: lucid sleep status.`,
          },
        };
      }
      case "backfill": {
        if (flags.rollback) {
          if (flags.from !== undefined || flags.to !== undefined)
            throw new UsageError(
              "backfill --rollback removes every entry Lucid backfilled: no --from/--to.",
              "sleep",
            );
          const removed = await workspace.rollbackBackfill({
            force: flags.force,
            ...(now === undefined ? {} : { now }),
          });
          return {
            json: { ...removed },
            render: () =>
              [
                `Removed ${plural(removed.removed, "backfilled diary entry", "backfilled diary entries")}${removed.days.length > 0 ? ` (${removed.days.join(", ")})` : ""}.`,
                ...removed.kept.map((kept) =>
                  context.style.yellow(
                    `  kept ${kept.day}: edited since it was written (--force removes it)`,
                  ),
                ),
              ].join("\n"),
          };
        }
        if (flags.from === undefined)
          throw new UsageError("backfill needs --from DAY (and --to DAY), or --rollback.", "sleep");
        const result = await workspace.backfill({
          from: flags.from,
          ...(flags.to === undefined ? {} : { to: flags.to }),
          ...(now === undefined ? {} : { now }),
        });
        return {
          json: { ...result },
          render: () =>
            [
              `Backfilled ${plural(result.written.length, "day")} into ${result.diary}${result.written.length > 0 ? `: ${result.written.map((each) => each.day).join(", ")}` : ""}.`,
              ...(result.skipped.length > 0
                ? [
                    context.style.dim(
                      `  skipped ${result.skipped.length}: ${summariseSkips(result.skipped.map((skip) => skip.reason))}`,
                    ),
                  ]
                : []),
            ].join("\n"),
        };
      }
      case "preview": {
        const result = await workspace.preview({ ...(now === undefined ? {} : { now }), ...phases });
        return { json: { ...result }, render: () => renderSweep(result, render) };
      }
      case "promote": {
        const result = await workspace.promote({ ...rankOptions(), apply: flags.apply });
        return { json: { ...result }, render: () => renderPromotion(result, render) };
      }
      case "explain": {
        const target = args[1];
        if (target === undefined) throw new UsageError("missing the range to explain: path#Lx-Ly.", "sleep");
        const explained = await workspace.explain(target, rankOptions());
        return { json: { ...explained }, render: () => renderExplanation(explained, render) };
      }
      case "status": {
        const status = await workspace.status(now === undefined ? {} : { now });
        return { json: { ...status }, render: () => renderStatus(status, render) };
      }
      case "rollback": {
        const result = await workspace.rollback({
          ...(args[1] === undefined ? {} : { runId: args[1] }),
          force: flags.force,
        });
        return {
          json: { ...result },
          render: () =>
            `Rolled back ${result.runId}: ${result.restored ? `${result.memoryFile} restored` : `${result.memoryFile} already as before`}, ` +
            `${plural(result.unpromoted, "range")} unpromoted, ${plural(result.removedMemories, "memory", "memories")} removed.`,
        };
      }
      case "record": {
        if (flags.file === undefined)
          throw new UsageError("record needs --file LOG.jsonl, the search log to replay.", "sleep");
        const result = await workspace.recordLog(await readText(resolve(context.io.cwd, flags.file)));
        const output = {
          json: { ...result },
          render: () =>
            [
              `Replayed ${plural(result.searches, "search", "searches")}: ${plural(result.recorded, "recall")} recorded, ${result.skipped} hit(s) skipped (not a daily note, lines not there, or not worth keeping).`,
              ...(result.evicted > 0
                ? [
                    context.style.dim(
                      `  ${plural(result.evicted, "older record")} evicted to stay within the cap (the least recently recalled go first).`,
                    ),
                  ]
                : []),
              ...result.errors.map((error) => context.style.yellow(`  line ${error.line}: ${error.message}`)),
            ].join("\n"),
        };
        if (result.errors.length === 0) return output;
        return {
          ...output,
          error: {
            code: "INVALID_ARGUMENT" as const,
            message: `${plural(result.errors.length, "line")} of ${flags.file} could not be read; the others were recorded.`,
          },
        };
      }
      case "import-openclaw": {
        if (flags.config !== undefined)
          return importOpenClawConfig(context, { config: flags.config, file: flags.file });
        const text =
          flags.file === undefined ? undefined : await readText(resolve(context.io.cwd, flags.file));
        const result = await workspace.importOpenClaw(text);
        return {
          json: { ...result },
          render: () =>
            [
              `Imported ${plural(result.imported, "recall record")} from OpenClaw; ${result.kept} already here kept as they were.`,
              ...(result.evicted > 0
                ? [
                    context.style.dim(
                      `  ${plural(result.evicted, "record")} evicted to stay within the cap (the least recently recalled go first).`,
                    ),
                  ]
                : []),
              ...result.skipped.map((skip) => context.style.dim(`  skipped ${skip.key}: ${skip.reason}`)),
            ].join("\n"),
        };
      }
      case "signals": {
        const entries = await workspace.signals();
        return { json: { workspace: workspace.dir, entries }, render: () => renderSignals(entries, render) };
      }
      case "index": {
        const report = await workspace.index();
        return {
          json: { ...report },
          render: () =>
            `Indexed ${workspace.dir}: ${plural(report.files, "note")}, ${report.indexed} (re)indexed into ${plural(report.chunks, "chunk")}, ${report.removed} removed.` +
            report.skipped.map((skip) => `\n  skipped ${skip.path}: ${skip.reason}`).join(""),
        };
      }
    }
  },
});

/** "3 no-notes, 1 already-backfilled". */
function summariseSkips(reasons: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const reason of reasons) counts.set(reason, (counts.get(reason) ?? 0) + 1);
  return [...counts].map(([reason, count]) => `${count} ${reason}`).join(", ");
}

/** `--phases light,rem`: the sweep's phases, checked. */
function phasesFlag(value: string | undefined): { phases?: SweepPhase[] } {
  if (value === undefined) return {};
  const phases = value.split(",").map((each) => each.trim().toLowerCase()) as SweepPhase[];
  const unknown = phases.filter((phase) => !(SWEEP_PHASES as readonly string[]).includes(phase));
  if (unknown.length > 0 || phases.length === 0)
    throw new UsageError(
      `--phases takes ${SWEEP_PHASES.join(", ")} separated by commas, got ${JSON.stringify(value)}.`,
      "sleep",
    );
  return { phases: [...new Set(phases)] };
}

/**
 * `lucid sleep --every CRON`: sweeps on the schedule in the foreground until Ctrl-C, a line a run.
 * A failed sweep is reported and the next one runs; a sweep another process holds the workspace
 * for is skipped.
 */
async function sweepEvery(
  context: CommandContext<FlagsDef>,
  workspace: Workspace,
  expression: string,
  tz: string | undefined,
  phases: { phases?: SweepPhase[] },
) {
  const [{ parseSchedule, runOnSchedule }, { shutdownSignal }] = await Promise.all([
    import("../../edge/sleep-schedule.js"),
    import("../../edge/shutdown-signal.js"),
  ]);
  // The zone the workspace counts its days in, so a 03:00 sweep is dated the day it runs.
  const zone = tz ?? workspace.settings.timezone ?? (await context.config()).config.timeZone ?? "UTC";
  const schedule = parseSchedule(expression, zone);
  const { io, style } = context;
  const out = (line: string) => void io.stdout.write(`${line}\n`);
  let runs = 0;
  let failed = 0;
  let skipped = 0;
  const { signal, dispose } = shutdownSignal();
  io.stderr.write(
    `Sweeping ${workspace.dir} on ${schedule.describe()}; the first at ${schedule.next(new Date())?.toISOString() ?? "never"}. Ctrl-C stops.\n`,
  );
  try {
    await runOnSchedule({
      schedule,
      signal,
      job: () => workspace.sweep(phases),
      onRun: (run) => {
        const at = run.at.toISOString();
        if (run.skipped === "busy") {
          skipped++;
          out(`${at} skipped: the previous sweep is still running`);
        } else if (run.error !== undefined) {
          if (isLucidError(run.error, "DREAM_LEASE_HELD")) {
            skipped++;
            out(`${at} skipped: ${run.error.message}`);
          } else {
            failed++;
            out(
              style.red(
                `${at} failed: ${run.error instanceof Error ? run.error.message : String(run.error)}`,
              ),
            );
          }
        } else if (run.result !== undefined) {
          runs++;
          const result = run.result;
          const bad = result.phases.filter((report) => report.outcome === "failed");
          if (bad.length > 0) failed++;
          out(
            `${at} swept: ${result.staged.length} staged, ${result.truths.length} truths, ${result.promotion?.promoted.length ?? 0} promoted` +
              (bad.length > 0 ? style.red(`; failed: ${bad.map((report) => report.phase).join(", ")}`) : ""),
          );
        }
      },
    });
  } finally {
    dispose();
  }
  return {
    json: { schedule: schedule.describe(), sweeps: runs, failed, skipped },
    render: () => `Stopped after ${plural(runs, "sweep")} (${failed} failed, ${skipped} skipped).`,
  };
}

async function readText(path: string): Promise<string> {
  try {
    return await readFile(path, "utf8");
  } catch (error) {
    throw new LucidError("IO_ERROR", `Cannot read ${path}: ${(error as Error).message}`, { cause: error });
  }
}
