/**
 * Reads tensors out of a safetensors file (an 8-byte little-endian header length, a JSON header of
 * `{ name: { dtype, shape, data_offsets } }`, then the data) and widens fp16 weights to fp32.
 *
 * @module
 */

export interface Fp32Tensor {
  readonly shape: readonly number[];
  readonly data: Float32Array;
}

export interface SafetensorsFile {
  /** The tensor called `name` as fp32; throws if it is missing or not F16/F32. */
  float32(name: string): Fp32Tensor;
}

interface HeaderEntry {
  dtype: string;
  shape: number[];
  data_offsets: [number, number];
}

/** Parses the header of `bytes`; tensors are decoded when asked for. */
export function readSafetensors(bytes: Uint8Array): SafetensorsFile {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerLength = Number(view.getBigUint64(0, true));
  const dataStart = 8 + headerLength;
  if (dataStart > bytes.byteLength) throw new Error("safetensors header is longer than the file");
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, dataStart))) as Record<
    string,
    HeaderEntry
  >;
  return {
    float32(name) {
      const entry = Object.hasOwn(header, name) ? header[name] : undefined;
      if (entry === undefined) throw new Error(`safetensors file has no tensor "${name}"`);
      const [start, end] = entry.data_offsets;
      const count = entry.shape.reduce((product, dim) => product * dim, 1);
      const begin = dataStart + start;
      if (entry.dtype === "F16" && end - start === count * 2) {
        return { shape: entry.shape, data: widenFloat16(view, begin, count) };
      }
      if (entry.dtype === "F32" && end - start === count * 4) {
        const data = new Float32Array(count);
        for (let i = 0; i < count; i++) data[i] = view.getFloat32(begin + i * 4, true);
        return { shape: entry.shape, data };
      }
      throw new Error(
        `safetensors tensor "${name}" is ${entry.dtype} of ${end - start} bytes for shape [${entry.shape}]`,
      );
    },
  };
}

/** Every fp16 bit pattern's fp32 value: a table lookup beats decoding 23 million halves one by one. */
let float16Table: Float32Array | undefined;

function widenFloat16(view: DataView, begin: number, count: number): Float32Array {
  float16Table ??= buildFloat16Table();
  const table = float16Table;
  const out = new Float32Array(count);
  for (let i = 0; i < count; i++) out[i] = table[view.getUint16(begin + i * 2, true)] as number;
  return out;
}

function buildFloat16Table(): Float32Array {
  const table = new Float32Array(65536);
  for (let bits = 0; bits < 65536; bits++) {
    const sign = bits & 0x8000 ? -1 : 1;
    const exponent = (bits >> 10) & 0x1f;
    const fraction = bits & 0x3ff;
    if (exponent === 0) table[bits] = sign * fraction * 2 ** -24;
    else if (exponent === 0x1f) table[bits] = fraction === 0 ? sign * Number.POSITIVE_INFINITY : Number.NaN;
    else table[bits] = sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
  }
  return table;
}
