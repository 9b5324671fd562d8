import type { ScopeOptions } from "../../core/scope.js";
import { formatScope, scopeFromOptions } from "../../core/scope.js";
import type { GateOptions, GateStatus } from "../../dream/gate/gate.js";
import { autoDreamEnabled } from "../../edge/auto-dream-switch.js";
import type { EmbedderRuntime } from "../../embed/embedder.js";
import type { StoreStatus } from "../../memory/types.js";
import type { Memory } from "../../sdk/memory.js";
import { defineCommand } from "../command.js";
import { terminalWidth } from "../io.js";
import { formatBytes } from "../output/format.js";
import type { Style } from "../output/style.js";
import { renderFields } from "../output/table.js";

const SCOPE_LABELS = { user_id: "Users", agent_id: "Agents", app_id: "Apps", run_id: "Runs" } as const;
/** The longest label, "Categories": values start after it. */
const LABEL_WIDTH = "Categories".length;
/** Ids shown per scope kind; categories are few and all shown. */
const SCOPE_IDS_SHOWN = 10;

export const statusCommand = defineCommand({
  name: "status",
  summary: "Show the store: path, size, schema, embedder and its runtime, counts by scope and category",
  args: [],
  flags: {},
  scoped: true,
  examples: ["lucid status", "lucid status --user alice", "lucid status --json | jq .byCategory"],
  notes: [
    "Works on a store waiting for `lucid reembed`, and says so under Pending.",
    "Runtime says what runs the local model and why: `native (onnxruntime-node 1.30.0)`, or " +
      "`WASM — onnxruntime-node could not be loaded: …` (the same vectors, about 8× slower).",
    "LLM shows the configured model and what its calls have cost in this store, by feature (add, dream, sleep).",
    "Auto-dream shows the gate for the scope (flags, LUCID_*_ID or the config's defaults), or for each user " +
      "when none is set: `auto-dream: waiting — sessions 2/5, memories 3/20` or `auto-dream: eligible`.",
  ],
  async run(context) {
    const loaded = await context.config();
    const memory = await context.memory({ allowEmbedderChange: true });
    const status = await memory.status();
    const autoDream = await gateLines(memory, await context.scope(), status, {
      enabled: autoDreamEnabled(context.io.env),
    });
    return {
      json: {
        home: loaded.home,
        config: { path: loaded.file, exists: loaded.exists, embedder: loaded.redacted.embedder },
        ...status,
        autoDream,
      },
      render: () =>
        renderFields(
          [
            ["Home", loaded.home],
            [
              "Config",
              loaded.exists
                ? loaded.file
                : `${loaded.file} ${context.style.dim("(not found: defaults apply)")}`,
            ],
            ...storeFields(status, context.style, terminalWidth(context.io.stdout)),
          ],
          context.style,
        ) +
        autoDream
          .map(
            ({ scope, line }) =>
              `\n${autoDream.length === 1 ? line : `${line}  ${context.style.dim(scope)}`}`,
          )
          .join(""),
    };
  },
});

/** The gate of the given scope, or of each user (at most SCOPE_IDS_SHOWN) when no scope is set. */
async function gateLines(
  memory: Memory,
  scope: ScopeOptions,
  status: StoreStatus,
  options: GateOptions,
): Promise<{ scope: string; line: string; gate: GateStatus }[]> {
  const scopes =
    Object.keys(scope).length > 0
      ? [scope]
      : Object.keys(status.byScope.user_id)
          .slice(0, SCOPE_IDS_SHOWN)
          .map((userId) => ({ userId }));
  const { renderGateLine } = await import("../../dream/gate/gate.js");
  const lines = [];
  for (const each of scopes) {
    const gate = await memory.dream.gate(each, { ...options, countAlways: true });
    lines.push({ scope: formatScope(scopeFromOptions(each)), line: renderGateLine(gate), gate });
  }
  return lines;
}

function storeFields(status: StoreStatus, style: Style, width: number | undefined): [string, string][] {
  const size = status.sizeBytes === null ? "in memory" : formatBytes(status.sizeBytes);
  const fields: [string, string][] = [
    [
      "Store",
      `${status.location} ${style.dim(`(${status.backend.name}, ${size}, schema v${status.schemaVersion})`)}`,
    ],
    [
      "Embedder",
      status.embedder === null
        ? style.dim("none yet")
        : `${status.embedder.id} (${status.embedder.dimension}-d)`,
    ],
  ];
  if (status.embedderRuntime !== null) fields.push(["Runtime", runtimeLine(status.embedderRuntime, style)]);
  if (status.defaultEmbedder !== null) {
    const target = `${status.defaultEmbedder.id} (${status.defaultEmbedder.dimension}-d)`;
    fields.push(["Upgrade", `\`lucid reembed\` moves this store to ${target}, the default local model`]);
  }
  if (status.pendingEmbedder !== null) {
    const pending = `${status.pendingEmbedder.id} (${status.pendingEmbedder.dimension}-d)`;
    fields.push(["Pending", `${style.yellow(pending)}: run \`lucid reembed\` to switch`]);
  }
  const expired = status.expired > 0 ? style.dim(` (${status.expired} expired: hidden, kept)`) : "";
  fields.push(["Memories", `${status.total}${expired}`]);
  for (const [key, label] of Object.entries(SCOPE_LABELS)) {
    const counts = status.byScope[key as keyof typeof SCOPE_LABELS];
    if (Object.keys(counts).length > 0)
      fields.push([label, wrap(renderCounts(counts, SCOPE_IDS_SHOWN), width)]);
  }
  if (Object.keys(status.byCategory).length > 0) {
    fields.push(["Categories", wrap(renderCounts(status.byCategory, Number.POSITIVE_INFINITY), width)]);
  }
  fields.push(["LLM", llmLine(status.llm, style)]);
  return fields;
}

/** `native (onnxruntime-node 1.30.0)`, or `WASM — onnxruntime-node could not be loaded: …` in yellow. */
function runtimeLine(runtime: EmbedderRuntime, style: Style): string {
  const name = runtime.name === "wasm" ? "WASM" : runtime.name;
  return runtime.degraded
    ? style.yellow(`${name} — ${runtime.reason}`)
    : `${name} ${style.dim(`(${runtime.reason})`)}`;
}

/** `openai-compatible:gpt-4o-mini (≤ 20 calls a run) — add 3 calls, 2,410 + 310 tokens · dream 1 call …` */
function llmLine(llm: StoreStatus["llm"], style: Style): string {
  const model =
    llm.model === null
      ? style.dim("none (every feature takes its deterministic path)")
      : `${llm.model} ${style.dim(`(≤ ${llm.maxCallsPerRun} calls a run${llm.dreamJudge ? ", judges every dream" : ""})`)}`;
  const used = Object.entries(llm.usage)
    .filter(([, usage]) => usage.calls > 0)
    .map(([feature, usage]) => {
      const failed = usage.failures > 0 ? `, ${usage.failures} failed` : "";
      const tokens = `${usage.inputTokens.toLocaleString("en-US")} + ${usage.outputTokens.toLocaleString("en-US")} tokens`;
      return `${feature} ${usage.calls} ${usage.calls === 1 ? "call" : "calls"}${failed}, ${tokens}`;
    });
  return used.length === 0 ? model : `${model} — ${used.join(" · ")}`;
}

/** `alice 120 · bob 110`, largest first, at most `limit` of them. */
function renderCounts(counts: Record<string, number>, limit: number): string[] {
  const entries = Object.entries(counts).sort(([a, x], [b, y]) => y - x || a.localeCompare(b));
  const shown = entries.slice(0, limit).map(([name, count]) => `${name === "" ? "(none)" : name} ${count}`);
  const rest = entries.length - shown.length;
  return rest > 0 ? [...shown, `and ${rest} more`] : shown;
}

/** Items joined with " · ", wrapped at `width` (on a terminal) under the value column. */
function wrap(items: readonly string[], width: number | undefined): string {
  if (width === undefined) return items.join(" · ");
  const indent = " ".repeat(LABEL_WIDTH + 2);
  const lines: string[] = [];
  let line = "";
  for (const item of items) {
    const next = line === "" ? item : `${line} · ${item}`;
    if (line !== "" && indent.length + next.length + " ·".length > width) {
      lines.push(`${line} ·`);
      line = item;
    } else line = next;
  }
  lines.push(line);
  return lines.join(`\n${indent}`);
}
