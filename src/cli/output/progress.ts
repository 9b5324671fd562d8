/**
 * A progress bar on stderr, drawn only on a terminal (never into a pipe or a log file), redrawn at
 * most every 100 ms and erased when done.
 *
 * @module
 */

import type { OutputStream } from "../io.js";
import type { Style } from "./style.js";

export interface Progress {
  update(done: number, total: number): void;
  done(): void;
}

const BAR_WIDTH = 30;
const REDRAW_MS = 100;

export function createProgress(stream: OutputStream, options: { label: string; style: Style }): Progress {
  if (stream.isTTY !== true) return { update() {}, done() {} };
  let last = 0;
  let drawn = false;
  return {
    update(done, total) {
      const now = Date.now();
      if (now - last < REDRAW_MS && done < total) return;
      last = now;
      drawn = true;
      const ratio = total === 0 ? 1 : Math.min(done / total, 1);
      const filled = Math.round(ratio * BAR_WIDTH);
      const bar = options.style.cyan("█".repeat(filled)) + options.style.dim("░".repeat(BAR_WIDTH - filled));
      stream.write(`\r${options.label} ${bar} ${done}/${total} ${Math.floor(ratio * 100)}%\x1b[K`);
    },
    done() {
      if (drawn) stream.write("\r\x1b[K");
    },
  };
}
