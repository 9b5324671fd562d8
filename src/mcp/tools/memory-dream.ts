import { z } from "zod";
import type { DreamPlan } from "../../dream/plan.js";
import { NOTHING_TO_DO, renderReport } from "../../dream/render-report.js";
import { LucidError } from "../../errors.js";
import { scopeParams } from "../scope-params.js";
import { defineTool } from "../tool.js";

export const memoryDreamTool = defineTool({
  name: "memory_dream",
  title: "Consolidate memories (dream)",
  description:
    "Consolidate a scope's memories: remove leaked credentials, noise and expired facts, merge " +
    "duplicates, flag contradictions, rewrite vague entries. By default (or with `dry_run: true`) it only " +
    "returns the plan — a report of every proposed change with the reason — and changes nothing. " +
    "`dry_run: false` (or `auto: true`) applies it as `lucid dream --auto`: deletions, merges and rewrites; contradictions and the plan's " +
    "review items (possible duplicates and possible conflicts it is not sure of) are left for a person — " +
    "show them to the user; pinned memories are never touched; the run can be undone with `lucid dream undo <run>`. " +
    "Dreams also run on their own after enough sessions, so call this only when asked to tidy memory. " +
    "Acts on the server's default user unless you pass user_id / agent_id / app_id / run_id.",
  input: {
    dry_run: z
      .boolean()
      .optional()
      .describe("true (the default): only report what would change; false: apply the plan now."),
    auto: z.boolean().optional().describe("Apply the plan now, as dry_run: false does."),
    llm: z
      .boolean()
      .optional()
      .describe(
        "Have the server's configured LLM judge the review items (confirm or reject possible duplicates and " +
          "conflicts); default: the server's `dream.llm` setting.",
      ),
    ...scopeParams,
  },
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  async run(args, call) {
    const scope = call.scope(args);
    if (args.dry_run === true && args.auto === true) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        "dry_run: true and auto: true disagree: pass dry_run: false (or auto: true) to apply, or neither to preview.",
      );
    }
    const apply = args.dry_run === false || args.auto === true;
    if (!apply) {
      const plan = await call.shown(await call.memory.dream.plan(scope.options, llmOption(args.llm)));
      return {
        text: renderDryRun(plan),
        data: { scope: scope.scope, dryRun: true, plan },
      };
    }
    const { event, result } = await call.events.track({
      type: "dream",
      trigger: "tool",
      scope: scope.scope,
      scopeKey: scope.key,
      // The event keeps the counts, not the whole plan: the store's run record has that.
      job: async () => {
        const { runId, counts, line } = await call.memory.dream.auto(scope.options, llmOption(args.llm));
        return { ran: true, runId, counts, line };
      },
      summarize: (outcome) => outcome.line,
    });
    return {
      text:
        result.runId === null
          ? `${result.line}\nNothing was changed, so no run was recorded (event ${event.id}).`
          : `${result.line}\nRun ${result.runId} (event ${event.id}); undo with: lucid dream undo ${result.runId}`,
      data: {
        scope: scope.scope,
        dryRun: false,
        eventId: event.id,
        runId: result.runId,
        counts: result.counts,
        line: result.line,
      },
    };
  },
});

function llmOption(llm: boolean | undefined): { llm?: boolean } {
  return llm === undefined ? {} : { llm };
}

/** The skill's report: here the model applies with `auto: true`. */
function renderDryRun(plan: DreamPlan): string {
  const report = renderReport(plan);
  if (report === NOTHING_TO_DO) return report;
  const conflicts =
    plan.actions.some((action) => action.kind === "conflict") || plan.review.length > 0
      ? " Conflicts and review items are left for a person: show them to the user and fix what they decide with memory_update or memory_delete."
      : "";
  return `${report}\n\nDry run — no changes made. Call memory_dream with auto: true to apply.${conflicts}`;
}
