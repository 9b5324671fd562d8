import { createInterface, type Interface } from "node:readline";
import type { CliIo } from "../io.js";

/** Asks one question at a time on a terminal; the answer is the line typed, trimmed. */
export interface Prompter {
  ask(question: string): Promise<string>;
  close(): void;
}

/**
 * A prompter over stdin/stdout. End of input (Ctrl-D) answers with an empty line, so a closed
 * terminal never leaves a question hanging: each question's default then applies.
 */
export function createPrompter(io: CliIo): Prompter {
  const lines: string[] = [];
  const waiting: ((line: string) => void)[] = [];
  let ended = false;
  const readline: Interface = createInterface({ input: io.stdin, terminal: false });
  readline.on("line", (line) => {
    const next = waiting.shift();
    if (next === undefined) lines.push(line);
    else next(line);
  });
  readline.on("close", () => {
    ended = true;
    for (const next of waiting.splice(0)) next("");
  });
  return {
    async ask(question) {
      io.stdout.write(question);
      const buffered = lines.shift();
      if (buffered !== undefined) return buffered.trim();
      if (ended) return "";
      return (await new Promise<string>((resolve) => waiting.push(resolve))).trim();
    },
    close() {
      readline.close();
    },
  };
}
