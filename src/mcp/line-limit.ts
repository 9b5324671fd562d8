/**
 * One stdio message at most `maxBytes` long. The SDK's transport buffers up to 10 MB and, past it,
 * closes the session without a word; in front of it, this passes on whole lines only, drops a line
 * that grows past the limit (up to its newline), and says which request it was, so the server can
 * answer it with an error and tell the operator why.
 *
 * @module
 */

import { Transform, type TransformCallback } from "node:stream";

/** Well under the SDK's own 10 MB buffer: a memory's text is limited to 32 KiB anyway. */
export const MAX_STDIO_MESSAGE_BYTES = 8 * 1024 * 1024;

export interface DroppedMessage {
  /** Bytes of the line when it was dropped (at least the limit). */
  readonly bytes: number;
  /** The JSON-RPC id, when it could be read from the start of the line. */
  readonly id: string | number | undefined;
}

/** How much of each end of a dropped line is kept to find its id. */
const EDGE_BYTES = 512;

export class LineLimit extends Transform {
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private dropping: { head: Buffer; tail: Buffer; bytes: number } | undefined;

  constructor(
    private readonly maxBytes: number,
    private readonly onDrop: (dropped: DroppedMessage) => void,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let at = 0;
    while (at < chunk.length) {
      const newline = chunk.indexOf(10, at);
      const end = newline === -1 ? chunk.length : newline + 1;
      this.takePiece(chunk.subarray(at, end), newline !== -1);
      at = end;
    }
    done();
  }

  override _flush(done: TransformCallback): void {
    if (this.dropping !== undefined) this.dropLine();
    else if (this.pendingBytes > 0) this.push(Buffer.concat(this.pending));
    done();
  }

  /** A piece of the current line; `ends` when it holds the newline. */
  private takePiece(piece: Buffer, ends: boolean): void {
    if (this.dropping === undefined && this.pendingBytes + piece.length > this.maxBytes) {
      const line = Buffer.concat(this.pending);
      this.dropping = {
        head: line.subarray(0, EDGE_BYTES),
        tail: line.subarray(-EDGE_BYTES),
        bytes: line.length,
      };
      this.pending = [];
      this.pendingBytes = 0;
    }
    if (this.dropping !== undefined) {
      const dropping = this.dropping;
      if (dropping.head.length < EDGE_BYTES) {
        dropping.head = Buffer.concat([dropping.head, piece]).subarray(0, EDGE_BYTES);
      }
      dropping.tail = Buffer.concat([dropping.tail, piece]).subarray(-EDGE_BYTES);
      dropping.bytes += piece.length;
      if (ends) this.dropLine();
      return;
    }
    this.pending.push(piece);
    this.pendingBytes += piece.length;
    if (!ends) return;
    this.push(Buffer.concat(this.pending));
    this.pending = [];
    this.pendingBytes = 0;
  }

  private dropLine(): void {
    const { head, tail, bytes } = this.dropping as { head: Buffer; tail: Buffer; bytes: number };
    this.dropping = undefined;
    this.onDrop({ bytes, id: idOf(head.toString("utf8"), tail.toString("utf8")) });
  }
}

const ID = String.raw`"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+)`;
/** The message's own id as its last member: followed by the one brace that closes the message. */
const ID_LAST = new RegExp(`${ID}\\s*\\}\\s*$`);
const ID_ANYWHERE = new RegExp(ID);

/**
 * The `id` of a JSON-RPC message from its two ends: last (the MCP SDK writes it after `params`),
 * or first, before `params` (a nested `"id"` inside `params` is never taken for it).
 */
function idOf(head: string, tail: string): string | number | undefined {
  const last = ID_LAST.exec(tail);
  if (last !== null) return JSON.parse(last[1] as string) as string | number;
  const first = ID_ANYWHERE.exec(head);
  if (first === null) return undefined;
  const params = head.indexOf('"params"');
  if (params !== -1 && params < first.index) return undefined;
  return JSON.parse(first[1] as string) as string | number;
}
