import { createInterface, type Interface } from "node:readline";
import type { CliIo } from "../io.js";

/** Asks one question at a time on a terminal; the answer is the line typed, trimmed. */
export interface Prompter {
  /** The answer, or null when the person ended input (Ctrl-D) or pressed Ctrl-C: a cancel. */
  ask(question: string): Promise<string | null>;
  /** Says something between questions (why an answer was not understood). */
  say(line: string): void;
  /** Whether input ended by Ctrl-C (rather than Ctrl-D). */
  readonly interrupted: boolean;
  close(): void;
}

/**
 * A prompter over stdin/stdout. End of input (Ctrl-D) and Ctrl-C answer every question, the open
 * one and any later one, with null: the caller cancels and applies nothing, rather than taking a
 * closed terminal for a run of default answers.
 */
export function createPrompter(io: CliIo): Prompter {
  const lines: string[] = [];
  const waiting: ((line: string | null) => void)[] = [];
  let ended = false;
  let interrupted = false;
  const end = () => {
    ended = true;
    for (const next of waiting.splice(0)) next(null);
  };
  const readline: Interface = createInterface({ input: io.stdin, terminal: false });
  readline.on("line", (line) => {
    const next = waiting.shift();
    if (next === undefined) lines.push(line);
    else next(line);
  });
  readline.on("close", end);
  // With the terminal in line mode Ctrl-C reaches the process as SIGINT, not as input.
  const onInterrupt = () => {
    interrupted = true;
    io.stdout.write("\n");
    end();
  };
  process.on("SIGINT", onInterrupt);
  return {
    async ask(question) {
      io.stdout.write(question);
      const buffered = lines.shift();
      if (buffered !== undefined) return buffered.trim();
      if (ended) return null;
      const answer = await new Promise<string | null>((resolve) => waiting.push(resolve));
      return answer === null ? null : answer.trim();
    },
    say(line) {
      io.stdout.write(`${line}\n`);
    },
    get interrupted() {
      return interrupted;
    },
    close() {
      process.off("SIGINT", onInterrupt);
      readline.close();
    },
  };
}
