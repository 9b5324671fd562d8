import { z } from "zod";
import { noiseOf } from "../../dream/analyse/noise.js";
import { LucidError } from "../../errors.js";
import { judgeInjection } from "../../injection/judge-injection.js";
import type { AddResultItem } from "../../memory/types.js";
import { clip, plural } from "../render.js";
import { scopeParams } from "../scope-params.js";
import { defineTool } from "../tool.js";

export const memoryAddTool = defineTool({
  name: "memory_add",
  title: "Remember facts",
  description:
    "Store durable facts in long-term memory: who the user is, preferences, decisions, rules, project " +
    "facts, lessons learned. Write each fact as one short, self-contained sentence in the third person " +
    '("User prefers pnpm over npm"), not a transcript. Pass one fact as `text` or several as `facts`. ' +
    "An exact duplicate in the same scope is not stored twice. Chatter, acknowledgements and tool output " +
    '("ok thanks", a test summary) are not facts and are not stored, nor is text that instructs the assistant ' +
    "(about tools, credentials, links or other users, or overriding its instructions). " +
    "Credentials are redacted before storing. " +
    "Stored in the server's default user scope unless you pass user_id / agent_id / app_id / run_id.",
  input: {
    text: z.string().min(1).optional().describe("One fact to remember."),
    facts: z
      .array(z.string().min(1))
      .min(1)
      .max(100)
      .optional()
      .describe("Several facts, one memory each. Pass either this or `text`, not both."),
    category: z
      .string()
      .min(1)
      .optional()
      .describe(
        "identity, configuration, rule, preference, decision, technical, relationship, project, " +
          "operational, session_state, compact_summary or task_learning (decides retention: operational " +
          "facts expire after 7 days, project facts after 90); any other label is kept as given, with no expiry.",
      ),
    importance: z.number().min(0).max(1).optional().describe("How important, from 0 to 1."),
    pinned: z
      .boolean()
      .optional()
      .describe("Pin: consolidation (dreaming) never changes or removes a pinned memory."),
    metadata: z
      .record(z.string(), z.unknown())
      .optional()
      .describe('Any extra key/values to keep with the memory, e.g. {"source": "chat"}.'),
    infer: z
      .boolean()
      .optional()
      .describe(
        "Let the server's LLM (when one is configured) extract the durable facts from `text` (a passage or " +
          "conversation) instead of storing it as given; a fact already known is not stored twice, and one " +
          "that changes a known fact updates it (the old text stays in its history).",
      ),
    ...scopeParams,
  },
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false },
  async run(args, call) {
    if (args.text !== undefined && args.facts !== undefined) {
      throw new LucidError(
        "INVALID_ARGUMENT",
        "Pass `text` (one fact) or `facts` (several), not both: put the text in `facts` too if it is a fact of its own.",
      );
    }
    const given = args.facts ?? (args.text === undefined ? [] : [args.text]);
    if (given.length === 0) {
      throw new LucidError("INVALID_ARGUMENT", "No facts provided. Pass `text` or a `facts` array.");
    }
    // The scope first: a call outside the server's scope is refused whatever it carries.
    const scope = call.scope(args);
    const metadata: Record<string, unknown> = { ...args.metadata };
    if (args.importance !== undefined) metadata.importance = args.importance;
    if (args.pinned !== undefined) metadata.pinned = args.pinned;
    const options = {
      ...scope.options,
      metadata,
      ...(args.category === undefined ? {} : { category: args.category }),
    };
    if (args.infer === true) {
      // The model reads the whole passage: noise filtering is its job here, not the pattern list's.
      const result = await call.shown(
        await call.memory.add(
          given.map((content) => ({ role: "user", content })),
          { ...options, infer: true },
        ),
      );
      const dropped = (result.dropped ?? []).map(
        (drop) => `- not stored (possible injection): "${clip(drop.text, 80)}"`,
      );
      return {
        text: renderResults(result.results, scope.label, dropped),
        data: { scope: scope.scope, ...result },
      };
    }
    // What dream would delete as noise is not stored at all (Mem0's plugin filters these too), nor
    // is a fact that reads as an instruction to the agent: the model writing it may be obeying a
    // page it read, and a person who wants such a rule kept adds it themselves.
    const found = given.flatMap((fact) => {
      if (judgeInjection(fact).injection) return [{ text: fact, rule: "possible_injection" }];
      const match = noiseOf(fact);
      // `text`, a key the output mask reads as stored content.
      return match === undefined ? [] : [{ text: fact, rule: match.rule }];
    });
    const facts = given.filter((fact) => !found.some((item) => item.text === fact));
    // Echoed back masked, like every stored text: tool output that is noise may still hold a token.
    const noise = await call.shown(found);
    const filtered = noise.map(
      (item) => `- not stored (${item.rule.replace(/_/gu, " ")}): "${clip(item.text, 80)}"`,
    );
    if (facts.length === 0) {
      return {
        // Mem0's wording when every fact is left out; each line says why (noise or a possible injection).
        text: ["All provided facts were filtered as noise. Nothing stored.", ...filtered].join("\n"),
        data: { scope: scope.scope, results: [], filtered: noise },
      };
    }
    // Each fact is one user message, so one call stores them all in one transaction.
    const { results } = await call.shown(
      await call.memory.add(
        facts.map((content) => ({ role: "user", content })),
        options,
      ),
    );
    return {
      text: renderResults(results, scope.label, filtered, args.category ?? "uncategorized"),
      data: { scope: scope.scope, results, ...(noise.length === 0 ? {} : { filtered: noise }) },
    };
  },
});

function renderResults(
  results: readonly AddResultItem[],
  label: string,
  filtered: readonly string[],
  category?: string,
): string {
  const count = (event: string) => results.filter((item) => item.event === event).length;
  const added = count("ADD");
  const existing = count("NONE");
  const updated = count("UPDATE");
  const lines = results.map((item) => {
    // Say what was redacted (the kind, never the value), so the model does not retry with it.
    const kinds = [...new Set((item.redactions ?? []).map((redaction) => redaction.kind))];
    const redacted = kinds.length === 0 ? "" : ` — redacted: ${kinds.join(", ")}`;
    const what = item.event === "ADD" ? "stored" : item.event === "UPDATE" ? "updated" : "already known";
    const was = item.previous_memory === undefined ? "" : ` (was: "${clip(item.previous_memory, 60)}")`;
    return `- ${what}: "${clip(item.memory, 80)}" (id: ${item.id})${was}${redacted}`;
  });
  if (results.length === 0) lines.push("- nothing worth remembering was found");
  const head =
    existing === 0 && updated === 0
      ? `Stored ${plural(added, "fact")}${category === undefined ? "" : ` [${category}]`} for ${label}:`
      : `Stored ${plural(added, "fact")}, ${updated} updated, ${existing} already known, for ${label}:`;
  return [head, ...lines, ...filtered].join("\n");
}
