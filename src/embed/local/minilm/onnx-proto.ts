/**
 * Just enough of a protobuf encoder to write an ONNX model in memory: the messages and fields the
 * BERT graph needs (field numbers from onnx/onnx.proto), without a protobuf dependency. A message is
 * kept as a list of byte chunks and flattened once; weights can be lazy chunks, decoded straight
 * into the model's bytes, so the ~90 MB of fp32 weights never exist twice.
 *
 * @module
 */

/** Bytes of a known length, produced only when the message is flattened. */
export interface LazyBytes {
  readonly byteLength: number;
  /** Writes exactly `byteLength` bytes into `target`. */
  fill(target: Uint8Array): void;
}

/** An encoded message, not yet flattened: its chunks and their total length. */
export interface ProtoMessage {
  readonly chunks: readonly (Uint8Array | LazyBytes)[];
  readonly length: number;
}

/** ONNX `TensorProto.DataType` values used here. */
export const TENSOR_TYPE = { float: 1, int64: 7 } as const;

/**
 * A weight or constant: `dims` and its little-endian bytes, which a Float32Array's or BigInt64Array's
 * are on every platform onnxruntime-node ships for.
 */
export interface TensorInit {
  readonly name: string;
  readonly dims: readonly number[];
  readonly dataType: number;
  readonly data: ArrayBufferView | LazyBytes;
}

/** A graph input or output; a string dimension is symbolic (`"batch"`), a number is fixed. */
export interface ValueInfo {
  readonly name: string;
  readonly elemType: number;
  readonly dims: readonly (number | string)[];
}

export type AttributeValue = number | readonly number[] | { readonly float: number };

export interface NodeInit {
  readonly op: string;
  readonly inputs: readonly string[];
  readonly outputs: readonly string[];
  readonly attributes?: Readonly<Record<string, AttributeValue>>;
}

export interface ModelInit {
  readonly nodes: readonly NodeInit[];
  readonly initializers: readonly TensorInit[];
  readonly inputs: readonly ValueInfo[];
  readonly outputs: readonly ValueInfo[];
  /** The default-domain opset the nodes are written for. */
  readonly opset: number;
}

// Wire types: 0 varint, 2 length-delimited, 5 fixed 32-bit.
const VARINT = 0;
const BYTES = 2;
const FIXED32 = 5;

// AttributeProto.AttributeType
const ATTRIBUTE_FLOAT = 1;
const ATTRIBUTE_INT = 2;
const ATTRIBUTE_INTS = 7;

/** IR version 8 (ONNX 1.10–1.13) covers opsets up to 18, read by every onnxruntime since 1.11. */
const IR_VERSION = 8;

const utf8 = new TextEncoder();

/** Encodes a whole model as the bytes of a `ModelProto`. */
export function encodeModel(model: ModelInit): Uint8Array {
  const graph = message([
    ...model.nodes.map((node, index) => messageField(1, encodeNode(node, index))),
    stringField(2, "graph"),
    ...model.initializers.map((tensor) => messageField(5, encodeTensor(tensor))),
    ...model.inputs.map((value) => messageField(11, encodeValueInfo(value))),
    ...model.outputs.map((value) => messageField(12, encodeValueInfo(value))),
  ]);
  const opset = message([stringField(1, ""), varintField(2, model.opset)]);
  return flatten(
    message([
      varintField(1, IR_VERSION),
      stringField(2, "lucid"),
      messageField(7, graph),
      messageField(8, opset),
    ]),
  );
}

function encodeNode(node: NodeInit, index: number): ProtoMessage {
  return message([
    ...node.inputs.map((name) => stringField(1, name)),
    ...node.outputs.map((name) => stringField(2, name)),
    stringField(3, `${node.op}_${index}`),
    stringField(4, node.op),
    ...Object.entries(node.attributes ?? {}).map(([name, value]) =>
      messageField(5, encodeAttribute(name, value)),
    ),
  ]);
}

function encodeAttribute(name: string, value: AttributeValue): ProtoMessage {
  if (typeof value === "number") {
    return message([stringField(1, name), varintField(3, value), varintField(20, ATTRIBUTE_INT)]);
  }
  if ("float" in value) {
    const bytes = new Uint8Array(4);
    new DataView(bytes.buffer).setFloat32(0, value.float, true);
    return message([stringField(1, name), tag(2, FIXED32), chunk(bytes), varintField(20, ATTRIBUTE_FLOAT)]);
  }
  return message([
    stringField(1, name),
    ...value.map((item) => varintField(8, item)),
    varintField(20, ATTRIBUTE_INTS),
  ]);
}

function encodeTensor(tensor: TensorInit): ProtoMessage {
  const { data } = tensor;
  const raw = ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : data;
  return message([
    ...tensor.dims.map((dim) => varintField(1, dim)),
    varintField(2, tensor.dataType),
    stringField(8, tensor.name),
    tag(9, BYTES),
    varint(raw.byteLength),
    chunk(raw),
  ]);
}

function encodeValueInfo(value: ValueInfo): ProtoMessage {
  const dims = value.dims.map((dim) =>
    messageField(1, message([typeof dim === "number" ? varintField(1, dim) : stringField(2, dim)])),
  );
  const tensorType = message([varintField(1, value.elemType), messageField(2, message(dims))]);
  return message([stringField(1, value.name), messageField(2, message([messageField(1, tensorType)]))]);
}

function message(parts: readonly ProtoMessage[]): ProtoMessage {
  let length = 0;
  for (const part of parts) length += part.length;
  return { chunks: parts.flatMap((part) => part.chunks), length };
}

function chunk(bytes: Uint8Array | LazyBytes): ProtoMessage {
  return { chunks: [bytes], length: bytes.byteLength };
}

function tag(field: number, wireType: number): ProtoMessage {
  return varint((field << 3) | wireType);
}

function varintField(field: number, value: number): ProtoMessage {
  return message([tag(field, VARINT), varint(value)]);
}

function stringField(field: number, value: string): ProtoMessage {
  const bytes = utf8.encode(value);
  return message([tag(field, BYTES), varint(bytes.byteLength), chunk(bytes)]);
}

function messageField(field: number, value: ProtoMessage): ProtoMessage {
  return message([tag(field, BYTES), varint(value.length), value]);
}

/** A base-128 varint; negative numbers (an axis of -1) take ten bytes, as int64 two's complement. */
function varint(value: number): ProtoMessage {
  if (!Number.isSafeInteger(value)) throw new RangeError(`Not an integer for a varint: ${value}`);
  let rest = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  do {
    const low = Number(rest & 0x7fn);
    rest >>= 7n;
    bytes.push(rest === 0n ? low : low | 0x80);
  } while (rest !== 0n);
  return chunk(Uint8Array.from(bytes));
}

function flatten(value: ProtoMessage): Uint8Array {
  const out = new Uint8Array(value.length);
  let offset = 0;
  for (const part of value.chunks) {
    if (part instanceof Uint8Array) out.set(part, offset);
    else part.fill(out.subarray(offset, offset + part.byteLength));
    offset += part.byteLength;
  }
  return out;
}
