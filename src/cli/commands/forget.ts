import { LucidError } from "../../errors.js";
import type { ForgetResult } from "../../memory/types.js";
import { integerFlag, jsonObjectFlag } from "../args/flag-values.js";
import { type CommandContext, defineCommand, type FlagsDef } from "../command.js";
import { terminalWidth } from "../io.js";
import { formatScore, oneLine } from "../output/format.js";
import { renderScoredList } from "../output/render-memories.js";
import { UsageError } from "../usage-error.js";

export const forgetCommand = defineCommand({
  name: "forget",
  summary: "Delete the memory a query describes, only when the match is clear",
  args: [{ name: "query", required: false, description: "what to forget, in words (or --id)" }],
  flags: {
    id: { type: "string", valueHint: "ID", description: "forget this memory (after seeing the candidates)" },
    filters: {
      type: "string",
      valueHint: "JSON",
      description: "only consider memories matching these filters",
    },
    limit: { type: "string", valueHint: "N", description: "candidates to consider and show (default 5)" },
  },
  scoped: true,
  examples: [
    'lucid forget "alice\'s old address" --user alice',
    "lucid forget --id 0b6e2f1a-3c2d-4e5f-9a8b-7c6d5e4f3a2b",
    'lucid forget "coffee" --user alice --json',
  ],
  notes: [
    "The best match is deleted when it scores at least 40% and beats the runner-up by 10 points; " +
      "otherwise nothing is deleted and the candidates are listed with their ids and scores " +
      "(exit code 0, `deleted: null` in --json). Pick one with --id.",
  ],
  async run(context) {
    const query = context.args[0];
    const id = context.flags.id;
    if (query !== undefined && id !== undefined)
      throw new UsageError("give a <query> or --id, not both.", "forget");
    if (query === undefined && id === undefined) throw new UsageError("missing <query> (or --id).", "forget");
    const result =
      id === undefined ? await forgetByQuery(context, query as string) : await forgetById(context, id);
    const shown = await context.shown(result);
    return { json: { ...shown }, render: () => renderForget(shown, context) };
  },
});

async function forgetByQuery(context: CommandContext<FlagsDef>, query: string): Promise<ForgetResult> {
  const filters = jsonObjectFlag(context.flags.filters as string | undefined, "filters", "forget");
  const topK = integerFlag(context.flags.limit as string | undefined, "limit", "forget");
  const scope = await context.scope({ filters });
  const memory = await context.memory();
  return memory.forget(query, {
    ...scope,
    ...(filters === undefined ? {} : { filters }),
    ...(topK === undefined ? {} : { topK }),
  });
}

async function forgetById(context: CommandContext<FlagsDef>, id: string): Promise<ForgetResult> {
  const memory = await context.memory();
  const item = await memory.get(id);
  if (item === null) throw new LucidError("MEMORY_NOT_FOUND", `No memory has the id ${JSON.stringify(id)}.`);
  await memory.delete(id);
  return { deleted: item, candidates: [] };
}

function renderForget(result: ForgetResult, context: CommandContext<FlagsDef>): string {
  const { style } = context;
  const { deleted, candidates } = result;
  if (deleted !== null) {
    const score = deleted.score === undefined ? "" : style.dim(` (score ${formatScore(deleted.score)})`);
    return `${style.green("Forgot")} ${style.dim(deleted.id)}  ${oneLine(deleted.memory)}${score}`;
  }
  if (candidates.length === 0) return "No matching memories found.";
  const width = terminalWidth(context.io.stdout);
  return [
    `${style.yellow("No clear match; nothing deleted.")} Candidates:`,
    renderScoredList(candidates, { style, width }),
    style.dim("Forget one with: lucid forget --id <ID>"),
  ].join("\n");
}
