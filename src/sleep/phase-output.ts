/**
 * Where the light and REM phases write their blocks (`sleep.storage.mode`): the managed block in the
 * day's note (`inline`), a report of its own under `memory/dreaming/<phase>/` (`separate`), or both.
 *
 * @module
 */

import { stat } from "node:fs/promises";
import { join } from "node:path";
import type { MemoryContext } from "../core/context.js";
import { LucidError } from "../errors.js";
import { checkWritable } from "./confined-path.js";
import { DAILY_CHECKPOINTS } from "./daily-ingest.js";
import { PHASE_HEADINGS, writeManagedBlock, writeSeparateReport } from "./managed-block.js";
import type { SleepSettings } from "./sleep-config.js";

/**
 * Writes the phase's body; returns the files written.
 *
 * @throws LucidError `IO_ERROR` when the day's note cannot take the block (a link, too large, not
 *   UTF-8, in a folder that links outside the workspace): it is left as it is.
 */
export async function writePhaseOutput(
  context: MemoryContext,
  root: string,
  options: {
    readonly phase: "light" | "rem";
    readonly body: string;
    readonly today: string;
    readonly now: string;
    readonly storage: SleepSettings["storage"];
  },
): Promise<string[]> {
  const { phase, body, today, now, storage } = options;
  const heading = PHASE_HEADINGS[phase];
  const written: string[] = [];
  if (storage.mode === "inline" || storage.mode === "both") {
    const file = join(root, "memory", `${today}.md`);
    await checkWritable(root, file);
    const result = await writeManagedBlock(file, phase, heading, body);
    if (result.reason !== undefined)
      throw new LucidError(
        "IO_ERROR",
        `Sleep left ${file} as it is (${result.reason}); its ${heading} block was not written.`,
      );
    // Only the block changed, which ingestion leaves out: the note read today stays read.
    if (result.written) await keepCheckpoint(context, root, `memory/${today}.md`, today, now);
    written.push(file);
  }
  if (storage.mode === "separate" || storage.mode === "both" || storage.separateReports)
    written.push(await writeSeparateReport(root, phase, today, heading, body));
  return written;
}

/** Moves a note's ingestion checkpoint to its new size and time, if it was read today. */
async function keepCheckpoint(
  context: MemoryContext,
  root: string,
  path: string,
  today: string,
  now: string,
): Promise<void> {
  const [record] = await context.store.getSleepState(root, DAILY_CHECKPOINTS, [path]);
  if ((record?.value as { day?: unknown } | undefined)?.day !== today) return;
  const info = await stat(join(root, path));
  await context.store.putSleepState(root, DAILY_CHECKPOINTS, [
    { key: path, value: { size: info.size, mtimeMs: info.mtimeMs, day: today }, updatedAt: now },
  ]);
}
