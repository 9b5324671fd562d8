/**
 * `openclaw lucid …` (Mem0's `openclaw mem0 …`, `specs/mem0.md` §A.8): status, search, recall,
 * add, list, get, delete and dream — which runs Lucid's engine (a plan, or `--apply` it), not a
 * prompt to paste. Every command has `--json`.
 *
 * @module
 */

import { type LucidProcess, runLucidCommand } from "../../shared/lucid-process.js";
import type { PluginConfig } from "./config.js";
import type { PluginApi } from "./index.js";

/** The slice of commander's `Command` used here. */
interface Command {
  command(spec: string): Command;
  description(text: string): Command;
  option(flags: string, description: string): Command;
  action(handler: (...args: unknown[]) => unknown): Command;
}

export function registerLucidCli(api: PluginApi, lucid: () => LucidProcess, config: PluginConfig): void {
  if (api.registerCli === undefined) return;
  api.registerCli(
    ({ program }) => {
      const root = (program as Command)
        .command("lucid")
        .description("Lucid memory: status, search, add, list, dream…");
      const run =
        (tool: string, args: (...given: unknown[]) => Record<string, unknown>) =>
        async (...given: unknown[]) => {
          const options = (given.find(
            (each) => typeof each === "object" && each !== null && !Array.isArray(each),
          ) ?? {}) as {
            json?: boolean;
          };
          const lucidChild = lucid();
          try {
            const answer = await lucidChild.call(tool, { user_id: config.userId, ...args(...given) });
            // OpenClaw routes console.log to stderr in its CLI: results go to stdout themselves.
            process.stdout.write(
              `${options.json === true ? JSON.stringify({ ok: true, ...answer.data }, null, 2) : answer.text}\n`,
            );
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            if (options.json === true)
              process.stdout.write(
                `${JSON.stringify({ ok: false, error: `${tool} failed: ${message}` }, null, 2)}\n`,
              );
            else process.stderr.write(`${tool} failed: ${message}\n`);
            process.exitCode = 1;
          } finally {
            lucidChild.close();
          }
        };
      root
        .command("status")
        .description("Lucid's store, scopes and the auto-dream gate")
        .option("--json", "JSON output")
        .action(async (...given: unknown[]) => {
          // `lucid status` itself: the store, counts by scope and category, and the gate.
          const json = (given.find((each) => typeof each === "object" && each !== null) as { json?: boolean })
            ?.json;
          const args = [
            ...(config.home === undefined ? [] : ["--home", config.home]),
            "status",
            "--user",
            config.userId,
            ...(json === true ? ["--json"] : []),
          ];
          try {
            const result = await runLucidCommand({ command: config.command }, args);
            if (result.stdout !== "") process.stdout.write(result.stdout);
            if (result.stderr !== "") process.stderr.write(result.stderr);
            if (result.code !== 0) process.exitCode = result.code;
          } catch (error) {
            process.stderr.write(
              `lucid status failed: ${error instanceof Error ? error.message : String(error)}\n`,
            );
            process.exitCode = 1;
          }
        });
      root
        .command("search <query>")
        .description("Search memories")
        .option("--top-k <n>", "results (default 5)")
        .option("--json", "JSON output")
        .action(
          run("memory_search", (query, options) => ({
            query,
            limit: Number((options as { topK?: string }).topK ?? config.topK),
          })),
        );
      root
        .command("recall <query>")
        .description("The <recalled-memories> block a turn about <query> gets")
        .option("--json", "JSON output")
        .action(run("memory_recall", (query) => ({ query })));
      root
        .command("add <text>")
        .description("Capture the durable facts of <text>")
        .option("--json", "JSON output")
        .action(run("memory_capture", (text) => ({ messages: [{ role: "user", content: text }] })));
      root
        .command("list")
        .description("List memories, newest first")
        .option("--top-k <n>", "at most n (default 50)")
        .option("--json", "JSON output")
        .action(
          run("memory_list", (options) => ({ page_size: Number((options as { topK?: string }).topK ?? 50) })),
        );
      root
        .command("get <id>")
        .description("Read one memory")
        .option("--json", "JSON output")
        .action(run("memory_get", (id) => ({ memory_id: id })));
      root
        .command("delete <id>")
        .description("Delete one memory")
        .option("--json", "JSON output")
        .action(run("memory_delete", (id) => ({ memory_id: id })));
      root
        .command("dream")
        .description("Consolidate: show the plan, or --apply it (undo with `lucid dream undo`)")
        .option("--apply", "apply the plan")
        .option("--dry-run", "only show the plan (the default)")
        .option("--json", "JSON output")
        .action(
          run("memory_dream", (options) => ({ dry_run: (options as { apply?: boolean }).apply !== true })),
        );
    },
    { commands: ["lucid"] },
  );
}
