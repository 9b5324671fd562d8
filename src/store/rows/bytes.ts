/**
 * The binary columns both backends' tables share (a preimage's vector, a file's bytes before a
 * run): SQLite's blobs and PostgreSQL's `bytea` both bind a Buffer and return one, so one pair of
 * conversions writes and reads them on either, and the bytes come back identically.
 *
 * @module
 */

/** The bytes of a typed array as a Buffer over the same memory (no copy), as blobs and `bytea` take them. */
export function bytes(view: ArrayBufferView): Buffer {
  return Buffer.from(view.buffer, view.byteOffset, view.byteLength);
}

/**
 * A copy of a driver's bytes: a Buffer it returns may be a view into a larger pooled allocation, at
 * an offset a Float32Array cannot start at.
 */
export function ownBytes(view: Uint8Array): ArrayBuffer {
  return view.buffer.slice(view.byteOffset, view.byteOffset + view.byteLength) as ArrayBuffer;
}
