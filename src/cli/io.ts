/**
 * The process surface the CLI touches, gathered in one object so that commands never reach for
 * `process` themselves.
 *
 * @module
 */

export interface OutputStream {
  write(chunk: string): boolean;
  once(event: "drain", listener: () => void): unknown;
  readonly isTTY?: boolean;
  readonly columns?: number;
}

export interface CliIo {
  stdout: OutputStream;
  stderr: OutputStream;
  stdin: NodeJS.ReadableStream & { readonly isTTY?: boolean };
  env: Readonly<Record<string, string | undefined>>;
  /** The working directory: where a project's Mem0 retention files are read. */
  cwd: string;
}

export function processIo(): CliIo {
  return {
    stdout: process.stdout,
    stderr: process.stderr,
    stdin: process.stdin,
    env: process.env,
    cwd: process.cwd(),
  };
}

/** Writes and waits for the stream to drain when its buffer is full (large exports to a pipe). */
export async function writeAll(stream: OutputStream, chunk: string): Promise<void> {
  if (stream.write(chunk)) return;
  await new Promise<void>((resolve) => stream.once("drain", resolve));
}

/** All of a readable stream as UTF-8 text (`lucid add -`, `lucid import -`). */
export async function readText(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks).toString("utf8");
}

/** The width of the terminal `stream` writes to, or undefined in a pipe (or a terminal of unknown size). */
export function terminalWidth(stream: OutputStream): number | undefined {
  return stream.isTTY === true && stream.columns !== undefined && stream.columns > 0
    ? stream.columns
    : undefined;
}
