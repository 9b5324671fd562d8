/**
 * The command table: every `lucid` command, in the order `lucid --help` lists them.
 *
 * @module
 */

import { closestName } from "../../text/closest-name.js";
import type { Command } from "../command.js";
import { UsageError } from "../usage-error.js";
import { addCommand } from "./add.js";
import { captureCommand } from "./capture.js";
import { configCommand } from "./config.js";
import { deleteCommand } from "./delete.js";
import { dreamCommand } from "./dream.js";
import { exportCommand } from "./export.js";
import { forgetCommand } from "./forget.js";
import { getCommand } from "./get.js";
import { historyCommand } from "./history.js";
import { importCommand } from "./import.js";
import { initCommand } from "./init.js";
import { keysCommand } from "./keys.js";
import { listCommand } from "./list.js";
import { mcpCommand } from "./mcp.js";
import { migrateCommand } from "./migrate.js";
import { pinCommand, unpinCommand } from "./pin.js";
import { purgeCommand } from "./purge.js";
import { recallCommand } from "./recall.js";
import { reembedCommand } from "./reembed.js";
import { resetCommand } from "./reset.js";
import { scanCommand } from "./scan.js";
import { searchCommand } from "./search.js";
import { serveCommand } from "./serve.js";
import { sessionCommand } from "./session.js";
import { sleepCommand } from "./sleep.js";
import { statusCommand } from "./status.js";
import { updateCommand } from "./update.js";

export const COMMANDS: readonly Command[] = [
  addCommand,
  searchCommand,
  recallCommand,
  captureCommand,
  listCommand,
  getCommand,
  updateCommand,
  deleteCommand,
  historyCommand,
  purgeCommand,
  pinCommand,
  unpinCommand,
  forgetCommand,
  importCommand,
  exportCommand,
  statusCommand,
  scanCommand,
  dreamCommand,
  sleepCommand,
  sessionCommand,
  reembedCommand,
  migrateCommand,
  resetCommand,
  initCommand,
  configCommand,
  mcpCommand,
  serveCommand,
  keysCommand,
];

/** The command of this name; an unknown name is a usage error suggesting the closest one. */
export function findCommand(name: string): Command {
  const command = COMMANDS.find((candidate) => candidate.name === name);
  if (command !== undefined) return command;
  const closest = closestName(
    name,
    COMMANDS.map((candidate) => candidate.name),
  );
  throw new UsageError(
    `unknown command ${JSON.stringify(name)}.${closest === undefined ? "" : ` Did you mean \`lucid ${closest}\`?`}`,
  );
}
