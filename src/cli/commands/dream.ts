import { autoDreamEnabled } from "../../edge/auto-dream-switch.js";
import { defineCommand } from "../command.js";
import type { DreamRun } from "../dream/run-dream.js";
import { UsageError } from "../usage-error.js";

const ACTIONS = ["runs", "show", "undo"] as const;

export const dreamCommand = defineCommand({
  name: "dream",
  summary: "Consolidate a scope's memories: plan, review, apply, undo (runs / show / undo <run-id>)",
  args: [
    { name: "action", required: false, description: "runs | show <run-id> | undo <run-id> (default: dream)" },
    { name: "run-id", required: false, description: "the run to show or undo" },
  ],
  flags: {
    "dry-run": { type: "boolean", description: "print the plan and change nothing" },
    yes: {
      type: "boolean",
      description: "apply without asking: everything but conflicts, which need a person",
    },
    auto: {
      type: "boolean",
      description: "apply deletions, merges and rewrites; skip conflicts and keep one reminder memory",
    },
    "if-due": {
      type: "boolean",
      description: "check the auto-dream gate and run --auto only when it passes",
    },
    llm: {
      type: "boolean",
      description:
        "ask the configured LLM to judge the review tier: confirm or reject possible duplicates and conflicts (also `dream.llm` in the config)",
    },
    force: { type: "boolean", description: "undo even when memories changed after the run" },
    "purge-secrets": {
      type: "boolean",
      description:
        "with --yes or interactively: also erase removed credentials from run preimages (undo gives them up)",
    },
    now: {
      type: "string",
      valueHint: "ISO",
      description: "the plan's clock, so runs are reproducible (default: now)",
    },
    policy: {
      type: "string",
      valueHint: "FILE",
      description: "a policy file applied over all others: Lucid JSON, a .mem0.json, or Mem0 Markdown",
    },
    project: {
      type: "string",
      valueHint: "DIR",
      description: "read Mem0 retention from DIR's .mem0.json, .mem0.md and mem0.md (default: .)",
    },
  },
  scoped: true,
  examples: [
    "lucid dream --dry-run --user alice",
    "lucid dream --user alice                      # on a terminal: report, A/B/skip per conflict, Apply? [Y/n]",
    "lucid dream --user alice --yes",
    "lucid dream --auto --user alice",
    "lucid dream --if-due --user alice             # for cron and agent hooks",
    "lucid dream runs --user alice",
    "lucid dream show dream-20261130T091500-3fa2",
    "lucid dream undo dream-20261130T091500-3fa2",
    "lucid dream --user alice --yes --purge-secrets  # credentials gone from undo's preimages too",
    "lucid dream --dry-run --agent ops-bot --policy ./dream-policy.json --json > plan.json",
  ],
  notes: [
    "Analyses one scope — credentials, noise, expiry, low confidence, duplicates, contradictions, rewrites — " +
      "and prints Mem0's dream report (Merges, Conflicts, Prune, plus Credentials and Rewrites).",
    "On a terminal, `lucid dream` asks about each conflict ([A/B/skip], empty = skip) and then `Apply? [Y/n]`. " +
      "Without a terminal and without --yes or --auto it prints the report and changes nothing.",
    "Every apply is one transaction recorded as a run: `lucid dream undo <run-id>` restores every memory it " +
      "touched, refusing when one changed since (unless --force). One dream per scope at a time: a second " +
      "one says who holds the scope and skips.",
    "--if-due runs only when the gate passes (24 h since the last dream, 5 interactive sessions, 20 memories " +
      "by default; see `dream.gate` in the config); LUCID_DREAM=off disables it.",
    "A credential the dream removes is scrubbed from the memory's history and its scope's messages; the run's " +
      "preimage keeps it so that undo is exact. --purge-secrets erases it from every run's preimages too and " +
      "compacts the file (undo then restores the memory without it); `lucid purge <id>` erases one memory entirely.",
    "The policy is the defaults, then lucid.config.json `policy`, then the project's Mem0 retention files, " +
      "then --policy FILE. --json prints the plan or the run in its documented form (docs/dream-plan.md).",
  ],
  async run(context) {
    const { flags, args } = context;
    const action = args[0];
    if (action !== undefined) {
      if (!(ACTIONS as readonly string[]).includes(action)) {
        throw new UsageError(
          `unknown dream action ${JSON.stringify(action)}: use runs, show <run-id> or undo <run-id>.`,
          "dream",
        );
      }
      const memory = await context.memory();
      const { listRuns, showRun, undo } = await import("../dream/run-history.js");
      if (action === "runs") {
        const scope = await context.scope({ defaults: false });
        return listRuns(memory, Object.keys(scope).length === 0 ? undefined : scope, context.style);
      }
      const runId = args[1];
      if (runId === undefined)
        throw new UsageError(`missing <run-id> for \`lucid dream ${action}\`.`, "dream");
      return action === "show"
        ? showRun(memory, runId, context)
        : undo(memory, runId, flags.force, context.style);
    }
    const modes = [flags["dry-run"], flags.yes, flags.auto, flags["if-due"]].filter(Boolean).length;
    if (modes > 1) throw new UsageError("choose one of --dry-run, --yes, --auto and --if-due.", "dream");
    if (flags["purge-secrets"] && (flags["dry-run"] || flags.auto || flags["if-due"])) {
      throw new UsageError(
        "--purge-secrets goes with --yes or the interactive dream: it gives up undo for the credentials a person chose to remove.",
        "dream",
      );
    }

    // The policy (config, --project's retention files, --policy FILE) is resolved once, with the
    // memory: the same one the MCP server and auto-dream use.
    const { autoRun, dryRun, ifDueRun, interactive, interactiveRun, yesRun } = await import(
      "../dream/run-dream.js"
    );
    const run: DreamRun = {
      memory: await context.memory(),
      scope: await context.scope(),
      planOptions: {
        ...(flags.now === undefined ? {} : { now: flags.now }),
        ...(flags.llm ? { llm: true } : {}),
      },
      io: context.io,
      style: context.style,
      json: context.json,
      shown: context.shown,
      purgeSecrets: flags["purge-secrets"],
    };
    if (flags["dry-run"]) return dryRun(run, "Dry run — no changes made.");
    if (flags.yes) return yesRun(run);
    if (flags.auto) return autoRun(run);
    if (flags["if-due"]) {
      return ifDueRun(run, { enabled: autoDreamEnabled(context.io.env) });
    }
    if (interactive(run)) return interactiveRun(run);
    return dryRun(
      run,
      "No terminal to ask on: nothing applied. Pass --yes or --auto to apply without questions.",
    );
  },
});
