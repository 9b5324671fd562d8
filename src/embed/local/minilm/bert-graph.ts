/**
 * Builds the ONNX graph of a BERT encoder (all-MiniLM-L6-v2) from its safetensors weights, so
 * onnxruntime can run weights that ship only as safetensors. The graph follows Hugging Face's
 * `BertModel` operation for operation (same order of additions, division by √head size, exact erf
 * GELU) and stops at the last hidden state; pooling is done by the caller.
 *
 * Inputs: `input_ids` int64 [batch, sequence]; `position_ids` int64 [1, sequence];
 * `attention_bias` float [batch, 1, 1, sequence] (0 for tokens, a large negative for padding).
 * Output: `last_hidden_state` float [batch, sequence, hidden].
 *
 * @module
 */

import {
  type AttributeValue,
  encodeModel,
  type LazyBytes,
  type NodeInit,
  TENSOR_TYPE,
  type TensorInit,
} from "./onnx-proto.js";
import type { SafetensorsFile } from "./safetensors.js";

/** The shape of all-MiniLM-L6-v2, from its config.json. */
export interface BertShape {
  readonly hidden: number;
  readonly layers: number;
  readonly heads: number;
  readonly layerNormEpsilon: number;
}

export const MINILM_L6_SHAPE: BertShape = { hidden: 384, layers: 6, heads: 12, layerNormEpsilon: 1e-12 };

/** LayerNormalization entered the default domain in opset 17. */
const OPSET = 17;

/** Returns the bytes of an ONNX model for `InferenceSession.create`. */
export function buildBertModel(weights: SafetensorsFile, shape: BertShape = MINILM_L6_SHAPE): Uint8Array {
  const graph = createGraphBuilder(weights);
  const { hidden, heads } = shape;
  const headSize = hidden / heads;
  const epsilon = { float: shape.layerNormEpsilon };

  const toHeads = graph.int64("to_heads", [0, 0, heads, headSize]);
  const toHidden = graph.int64("to_hidden", [0, 0, hidden]);
  const scale = graph.scalar("sqrt_head_size", Math.sqrt(headSize));
  const sqrt2 = graph.scalar("sqrt_2", Math.SQRT2);
  const one = graph.scalar("one", 1);
  const half = graph.scalar("half", 0.5);

  const layerNorm = (input: string, prefix: string) =>
    graph.node(
      "LayerNormalization",
      [input, graph.weight(`${prefix}.weight`), graph.weight(`${prefix}.bias`)],
      {
        axis: -1,
        epsilon,
      },
    );
  const dense = (input: string, prefix: string) =>
    graph.node("Add", [
      graph.node("MatMul", [input, graph.linear(`${prefix}.weight`)]),
      graph.weight(`${prefix}.bias`),
    ]);
  const split = (input: string, perm: readonly number[]) =>
    graph.node("Transpose", [graph.node("Reshape", [input, toHeads])], { perm });

  // Hugging Face adds the token-type row to the word embedding first, then the position embedding.
  const words = graph.node("Gather", [graph.weight("embeddings.word_embeddings.weight"), "input_ids"]);
  const typed = graph.node("Add", [words, graph.tokenTypeZero()]);
  const positions = graph.node("Gather", [
    graph.weight("embeddings.position_embeddings.weight"),
    "position_ids",
  ]);
  let hiddenState = layerNorm(graph.node("Add", [typed, positions]), "embeddings.LayerNorm");

  for (let layer = 0; layer < shape.layers; layer++) {
    const prefix = `encoder.layer.${layer}`;
    const query = split(dense(hiddenState, `${prefix}.attention.self.query`), [0, 2, 1, 3]);
    const keyT = split(dense(hiddenState, `${prefix}.attention.self.key`), [0, 2, 3, 1]);
    const value = split(dense(hiddenState, `${prefix}.attention.self.value`), [0, 2, 1, 3]);
    const scores = graph.node("Add", [
      graph.node("Div", [graph.node("MatMul", [query, keyT]), scale]),
      "attention_bias",
    ]);
    const probabilities = graph.node("Softmax", [scores], { axis: -1 });
    const context = graph.node("Reshape", [
      graph.node("Transpose", [graph.node("MatMul", [probabilities, value])], { perm: [0, 2, 1, 3] }),
      toHidden,
    ]);
    const attended = layerNorm(
      graph.node("Add", [dense(context, `${prefix}.attention.output.dense`), hiddenState]),
      `${prefix}.attention.output.LayerNorm`,
    );
    const intermediate = dense(attended, `${prefix}.intermediate.dense`);
    // GELU as x · ½ · (1 + erf(x / √2)), the exact form BERT was trained with.
    const gelu = graph.node("Mul", [
      graph.node("Mul", [
        intermediate,
        graph.node("Add", [graph.node("Erf", [graph.node("Div", [intermediate, sqrt2])]), one]),
      ]),
      half,
    ]);
    hiddenState = layerNorm(
      graph.node("Add", [dense(gelu, `${prefix}.output.dense`), attended]),
      `${prefix}.output.LayerNorm`,
    );
  }
  graph.rename(hiddenState, "last_hidden_state");

  return encodeModel({
    nodes: graph.nodes,
    initializers: graph.initializers,
    opset: OPSET,
    inputs: [
      { name: "input_ids", elemType: TENSOR_TYPE.int64, dims: ["batch", "sequence"] },
      { name: "position_ids", elemType: TENSOR_TYPE.int64, dims: [1, "sequence"] },
      { name: "attention_bias", elemType: TENSOR_TYPE.float, dims: ["batch", 1, 1, "sequence"] },
    ],
    outputs: [
      { name: "last_hidden_state", elemType: TENSOR_TYPE.float, dims: ["batch", "sequence", hidden] },
    ],
  });
}

interface GraphBuilder {
  readonly nodes: NodeInit[];
  readonly initializers: TensorInit[];
  /** Adds a node with one output and returns that output's name. */
  node(op: string, inputs: readonly string[], attributes?: Readonly<Record<string, AttributeValue>>): string;
  /** A weight as stored. */
  weight(name: string): string;
  /** A linear layer's weight, stored [out, in], transposed to [in, out] for `MatMul`. */
  linear(name: string): string;
  /** Row 0 of the token-type embeddings: every token of a single-sentence input is type 0. */
  tokenTypeZero(): string;
  int64(name: string, values: readonly number[]): string;
  scalar(name: string, value: number): string;
  /** Gives the node that produces `output` the graph output's name. */
  rename(output: string, name: string): void;
}

function createGraphBuilder(weights: SafetensorsFile): GraphBuilder {
  const nodes: NodeInit[] = [];
  const initializers: TensorInit[] = [];
  const addFloat = (name: string, dims: readonly number[], data: Float32Array | LazyBytes) => {
    initializers.push({ name, dims, dataType: TENSOR_TYPE.float, data });
    return name;
  };
  return {
    nodes,
    initializers,
    node(op, inputs, attributes) {
      const output = `t${nodes.length}`;
      nodes.push(
        attributes === undefined
          ? { op, inputs, outputs: [output] }
          : { op, inputs, outputs: [output], attributes },
      );
      return output;
    },
    // Weights are decoded only while the model's bytes are written, straight into them, so no
    // second copy of all the fp32 weights is held (it would add ~90 MB to the peak at load).
    weight(name) {
      const shape = weights.shape(name);
      return addFloat(
        name,
        shape,
        lazyFloats(shape, (target) => weights.writeFloat32(name, target)),
      );
    },
    linear(name) {
      const [rows = 0, columns = 0] = weights.shape(name);
      return addFloat(
        `${name}.T`,
        [columns, rows],
        lazyFloats([columns, rows], (target) => weights.writeFloat32(name, target, { transpose: true })),
      );
    },
    tokenTypeZero() {
      const { shape, data } = weights.float32("embeddings.token_type_embeddings.weight");
      const hidden = shape[1] ?? 0;
      return addFloat("token_type_zero", [hidden], data.slice(0, hidden));
    },
    int64(name, values) {
      initializers.push({
        name,
        dims: [values.length],
        dataType: TENSOR_TYPE.int64,
        data: BigInt64Array.from(values, BigInt),
      });
      return name;
    },
    scalar(name, value) {
      return addFloat(name, [], Float32Array.of(value));
    },
    rename(output, name) {
      const index = nodes.findIndex((node) => node.outputs[0] === output);
      const producer = nodes[index];
      if (producer === undefined) throw new Error(`No node produces ${output}`);
      nodes[index] = { ...producer, outputs: [name] };
    },
  };
}

function lazyFloats(shape: readonly number[], fill: (target: Uint8Array) => void): LazyBytes {
  return { byteLength: shape.reduce((product, dim) => product * dim, 4), fill };
}
