import { expiresFlag, jsonObjectFlag } from "../args/flag-values.js";
import { defineCommand } from "../command.js";
import { readText } from "../io.js";
import { oneLine } from "../output/format.js";
import { renderTable } from "../output/table.js";

export const addCommand = defineCommand({
  name: "add",
  summary: "Store a memory",
  args: [
    { name: "text", required: true, description: "the fact to remember, quoted; - reads it from stdin" },
  ],
  flags: {
    category: {
      type: "string",
      valueHint: "NAME",
      description: "a policy category: identity, preference, rule, project…",
    },
    metadata: { type: "string", valueHint: "JSON", description: "a JSON object stored with the memory" },
    pinned: {
      type: "boolean",
      description: "set metadata.pinned (consolidation never changes pinned memories)",
    },
    infer: {
      type: "boolean",
      description:
        "let the configured LLM extract the facts from the text (a passage or conversation); a known fact is not stored twice, a changed one is updated",
    },
    expires: {
      type: "string",
      valueHint: "DATE",
      description:
        "hide the memory after this day (YYYY-MM-DD, visible through it) or time (with its offset)",
    },
  },
  scoped: true,
  examples: [
    'lucid add "Alice is allergic to peanuts" --user alice --category identity',
    'lucid add "Deploys go through the staging cluster" --agent ops --pinned',
    `lucid add "Sprint ends Friday" --user alice --metadata '{"source":"standup"}' --expires 2026-12-01`,
    'echo "Prefers dark mode" | lucid add - --user alice --json',
    'lucid add --infer "I moved to Lisbon last month and started a job at Feedzai" --user alice',
  ],
  notes: [
    "An exact repeat of a memory already in the scope is not stored twice: it is reported as `exists`.",
    "--infer needs `llm` in lucid.config.json; a fact that changes a stored one is reported as `updated`, with the old text in `lucid history`.",
  ],
  async run(context) {
    const { flags } = context;
    const metadata = jsonObjectFlag(flags.metadata, "metadata", "add");
    const { loaded } = await context.setup();
    const expires = expiresFlag(flags.expires, "add", loaded.config.timeZone);
    const scope = await context.scope();
    const given = context.args[0] as string;
    const text = given === "-" ? await readText(context.io.stdin) : given;
    const memory = await context.memory();
    const result = await context.shown(
      await memory.add(text, {
        ...scope,
        ...(metadata !== undefined || flags.pinned
          ? { metadata: { ...metadata, ...(flags.pinned ? { pinned: true } : {}) } }
          : {}),
        ...(flags.category === undefined ? {} : { category: flags.category }),
        ...(flags.expires === undefined ? {} : { expirationDate: flags.expires }),
        ...(flags.infer ? { infer: true } : {}),
      }),
    );
    const { style } = context;
    // Stored as asked, but hidden at once: say so, or the memory seems lost.
    if (expires !== undefined && Date.parse(expires.hiddenFrom) <= Date.now()) {
      context.io.stderr.write(
        `${style.yellow("warning:")} --expires ${expires.value} has passed: the memory is stored but hidden at once (\`lucid list --show-expired\` shows it).\n`,
      );
    }
    return {
      json: { results: result.results, ...(result.llm === undefined ? {} : { llm: result.llm }) },
      render: () =>
        result.results.length === 0
          ? style.dim("Nothing worth remembering was found; nothing stored.")
          : renderTable(
              [{ header: "" }, { header: "" }, { header: "" }],
              result.results.map((item) => [
                item.event === "ADD"
                  ? { text: "added", paint: style.green }
                  : item.event === "UPDATE"
                    ? { text: "updated", paint: style.green }
                    : { text: "exists", paint: style.yellow },
                { text: item.id, paint: style.dim },
                item.previous_memory === undefined
                  ? oneLine(item.memory)
                  : `${oneLine(item.memory)} ${style.dim(`(was: ${oneLine(item.previous_memory)})`)}`,
              ]),
              { style, header: false },
            ),
    };
  },
});
