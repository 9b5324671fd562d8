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
  ],
  notes: [
    "An exact repeat of a memory already in the scope is not stored twice: it is reported as `exists`.",
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
      json: { results: result.results },
      render: () =>
        renderTable(
          [{ header: "" }, { header: "" }, { header: "" }],
          result.results.map((item) => [
            item.event === "ADD"
              ? { text: "added", paint: style.green }
              : { text: "exists", paint: style.yellow },
            { text: item.id, paint: style.dim },
            oneLine(item.memory),
          ]),
          { style, header: false },
        ),
    };
  },
});
