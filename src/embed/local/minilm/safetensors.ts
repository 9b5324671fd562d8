/**
 * Reads tensors out of a safetensors file (an 8-byte little-endian header length, a JSON header of
 * `{ name: { dtype, shape, data_offsets } }`, then the data) and widens its fp16 weights to fp32.
 * Only F16 is read: the weight file is pinned by its hash, and it is all F16 (less position ids).
 *
 * @module
 */

export interface Fp32Tensor {
  readonly shape: readonly number[];
  readonly data: Float32Array;
}

export interface SafetensorsFile {
  /** The shape of the tensor called `name`, without decoding it; throws if it is missing. */
  shape(name: string): readonly number[];
  /** The tensor called `name` as fp32; throws if it is missing or not F16. */
  float32(name: string): Fp32Tensor;
  /**
   * Writes the tensor called `name` as little-endian fp32 bytes into `target` (4 bytes per value),
   * a 2-D tensor transposed if asked: no intermediate array, for writing weights into a model.
   */
  writeFloat32(name: string, target: Uint8Array, options?: { transpose?: boolean }): void;
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
  const halvesOf = (name: string) => {
    const entry = Object.hasOwn(header, name) ? header[name] : undefined;
    if (entry === undefined) throw new Error(`safetensors file has no tensor "${name}"`);
    const [start, end] = entry.data_offsets;
    const count = entry.shape.reduce((product, dim) => product * dim, 1);
    if (entry.dtype !== "F16" || end - start !== count * 2 || dataStart + end > bytes.byteLength) {
      throw new Error(
        `safetensors tensor "${name}" is ${entry.dtype} of ${end - start} bytes for [${entry.shape}]`,
      );
    }
    return { shape: entry.shape, count, begin: dataStart + start };
  };
  return {
    shape: (name) => halvesOf(name).shape,
    float32(name) {
      const { shape, count, begin } = halvesOf(name);
      const data = new Float32Array(count);
      const bits = new Uint32Array(data.buffer);
      const table = float16Table();
      for (let i = 0; i < count; i++) bits[i] = table[view.getUint16(begin + i * 2, true)] as number;
      return { shape, data };
    },
    writeFloat32(name, target, options = {}) {
      const { shape, count, begin } = halvesOf(name);
      if (target.byteLength !== count * 4) throw new Error(`"${name}" needs ${count * 4} bytes`);
      const table = float16Table();
      const [rows = 1, columns = count] = shape.length === 2 ? shape : [];
      for (let row = 0; row < rows; row++) {
        for (let column = 0; column < columns; column++) {
          const source = row * columns + column;
          const bits = table[view.getUint16(begin + source * 2, true)] as number;
          const offset = (options.transpose === true ? column * rows + row : source) * 4;
          target[offset] = bits & 0xff;
          target[offset + 1] = (bits >>> 8) & 0xff;
          target[offset + 2] = (bits >>> 16) & 0xff;
          target[offset + 3] = bits >>> 24;
        }
      }
    },
  };
}

/** The fp32 bit pattern of every fp16 one: a table lookup beats decoding 23 million halves one by one. */
let table: Uint32Array | undefined;

function float16Table(): Uint32Array {
  if (table !== undefined) return table;
  const values = new Float32Array(65536);
  for (let bits = 0; bits < 65536; bits++) {
    const sign = bits & 0x8000 ? -1 : 1;
    const exponent = (bits >> 10) & 0x1f;
    const fraction = bits & 0x3ff;
    if (exponent === 0) values[bits] = sign * fraction * 2 ** -24;
    else if (exponent === 0x1f) values[bits] = fraction === 0 ? sign * Number.POSITIVE_INFINITY : Number.NaN;
    else values[bits] = sign * (1 + fraction / 1024) * 2 ** (exponent - 15);
  }
  table = new Uint32Array(values.buffer);
  return table;
}
