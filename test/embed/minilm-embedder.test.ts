import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { cosine } from "../../src/embed/cosine.js";
import { createMiniLmEmbedder } from "../../src/embed/local/minilm-embedder.js";
import { expectSilent } from "../helpers/expect-silent.js";

const LOAD_TIMEOUT = 120_000;

/** Vectors of the native runtime, checked in when this embedder was written: see the fixture's `about`. */
const golden = JSON.parse(
  readFileSync(new URL("./fixtures/minilm-golden.json", import.meta.url), "utf8"),
) as {
  texts: string[];
  vectors: number[][];
};

function maxDifference(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let max = 0;
  for (let i = 0; i < a.length; i++) max = Math.max(max, Math.abs((a[i] ?? 0) - (b[i] ?? 0)));
  return max;
}

function expectSameVectors(actual: readonly ArrayLike<number>[], expected: readonly ArrayLike<number>[]) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((vector, i) => {
    const reference = expected[i] ?? [];
    expect(cosine(vector, reference), `text ${i}`).toBeGreaterThanOrEqual(0.9999);
    expect(maxDifference(vector, reference), `text ${i}`).toBeLessThanOrEqual(1e-3);
  });
}

/** Wraps onnxruntime-node to count how often a model is loaded into a session. */
function countingImport() {
  const counts = { imports: 0, sessions: 0 };
  const importOnnxRuntime = async () => {
    counts.imports++;
    const ort = await import("onnxruntime-node");
    return {
      Tensor: ort.Tensor,
      InferenceSession: {
        create: (...args: Parameters<typeof ort.InferenceSession.create>) => {
          counts.sessions++;
          return ort.InferenceSession.create(...args);
        },
      },
    };
  };
  return { counts, importOnnxRuntime };
}

const native = createMiniLmEmbedder({ runtime: "native" });
const wasm = createMiniLmEmbedder({ runtime: "wasm" });

describe("createMiniLmEmbedder", () => {
  it("describes itself without loading the model", () => {
    expect(native.id).toBe("minilm-l6-v2@0.1.0");
    expect(wasm.id).toBe(native.id);
    expect(native.dimension).toBe(384);
  });

  it("returns an empty array for no texts", async () => {
    await expect(native.embed([], "add")).resolves.toEqual([]);
  });

  it("refuses an unknown runtime and a bad batch size", () => {
    expect(() => createMiniLmEmbedder({ runtime: "gpu" as "auto" })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
    expect(() => createMiniLmEmbedder({ batchSize: 0 })).toThrow(
      expect.objectContaining({ code: "INVALID_ARGUMENT" }),
    );
  });

  it(
    "loads silently and returns 384-dimensional unit Float32Arrays on both runtimes",
    async () => {
      const vectors = await expectSilent(async () => [
        ...(await native.embed(["The user has a dog named Poppy"], "add")),
        ...(await wasm.embed(["The user has a dog named Poppy"], "add")),
      ]);
      await expect(native.runtime()).resolves.toBe("native");
      await expect(wasm.runtime()).resolves.toBe("wasm");
      for (const vector of vectors) {
        expect(vector).toBeInstanceOf(Float32Array);
        expect(vector).toHaveLength(384);
        expect(Math.hypot(...Array.from(vector))).toBeCloseTo(1, 5);
      }
    },
    LOAD_TIMEOUT,
  );

  it(
    "reproduces the checked-in vectors on the native runtime",
    async () => {
      expectSameVectors(await native.embed(golden.texts, "add"), golden.vectors);
    },
    LOAD_TIMEOUT,
  );

  it(
    "reproduces them on the WASM runtime, whose own tokenizer thereby cross-checks Lucid's",
    async () => {
      expectSameVectors(await wasm.embed(golden.texts, "add"), golden.vectors);
    },
    LOAD_TIMEOUT,
  );

  it(
    "agrees with the WASM engine on text that is hard to tokenise",
    async () => {
      const texts = [
        "What?!?... (really) [sic] {x} <y> $5 + 3 = 8 ^_^ ~tilde~ |pipe| `tick`",
        "a".repeat(100),
        "a".repeat(101),
        "supercalifragilisticexpialidociousness antidisestablishmentarianism",
        "hello [MASK] world [SEP] more [UNK] [mask]",
        "ΟΔΟΣ Σίσυφος ΣΣ",
        "한국어 텍스트입니다",
        "İstanbul ǅemal ﬁne ß ẞ",
        "tab\there\nnew\rline\u000bvt\u000cff\u0085nel\u00a0nbsp\u2028ls\u200bzwsp\u200dzwj\ufeffbom\u00adshy",
        "x\u0000y\ufffdz\ue000pua",
        "Ω≈ç√∫˜µ≤≥÷ ¡™£¢∞§¶•ªº–≠ «quotes» „low“ ‘single’ …",
        "ﾊﾝｶｸ ｶﾀｶﾅ ＡＢＣ１２３",
        "𠀀𪜀𫝀𫠠𬺰 中 文",
        "I love pizza 🍕😀🥹👨‍👩‍👧 !!!",
        "١٢٣ عربى עברית हिन्दी ไทย",
        "e-mail@example.com https://lucid.dev/path?q=1&r=2#frag",
      ];
      expectSameVectors(await native.embed(texts, "add"), await wasm.embed(texts, "add"));
    },
    LOAD_TIMEOUT,
  );

  it(
    "places paraphrases closer together than unrelated sentences",
    async () => {
      const [dog, paraphrase, revenue] = await native.embed(
        ["The user has a dog named Poppy", "Poppy is the user's dog", "Quarterly revenue grew"],
        "add",
      );
      if (!dog || !paraphrase || !revenue) throw new Error("missing vectors");

      expect(cosine(dog, paraphrase)).toBeGreaterThan(cosine(dog, revenue) + 0.3);
      expect(cosine(paraphrase, dog)).toBeGreaterThan(cosine(paraphrase, revenue) + 0.3);
    },
    LOAD_TIMEOUT,
  );

  it(
    "keeps the order of texts of mixed length across batches",
    async () => {
      const texts = [
        "Runs 5k every Saturday morning along the canal with her sister, then has pancakes at the corner café",
        "Allergic to peanuts",
        "",
        "Meeting moved to Thursday at 3pm",
        "My sister lives in Lisbon and works as an architect designing schools and libraries",
        "tea",
        "Working on the Lucid memory layer in TypeScript",
        "",
      ];
      const batched = await createMiniLmEmbedder({ runtime: "native", batchSize: 3 }).embed(texts, "add");
      const single: ArrayLike<number>[] = [];
      for (const text of texts) single.push(...(await native.embed([text], "add")));

      expect(batched).toHaveLength(texts.length);
      batched.forEach((vector, i) => {
        expect(maxDifference(vector, single[i] ?? []), `text ${i}`).toBeLessThan(1e-5);
      });
    },
    LOAD_TIMEOUT,
  );

  it(
    "gives every empty text one stable vector",
    async () => {
      const vectors = await native.embed(["hello", "", "world", ""], "add");
      const [alone] = await native.embed([""], "add");

      expect(maxDifference(vectors[1] ?? [], alone ?? [])).toBeLessThan(1e-6);
      expect(maxDifference(vectors[3] ?? [], alone ?? [])).toBeLessThan(1e-6);
      expect(cosine(vectors[0] ?? [], alone ?? [])).toBeLessThan(0.99);
    },
    LOAD_TIMEOUT,
  );

  it(
    "loads the model once for all embedders of the process",
    async () => {
      const { counts, importOnnxRuntime } = countingImport();
      const first = createMiniLmEmbedder({ runtime: "native", importOnnxRuntime });
      const second = createMiniLmEmbedder({ runtime: "auto", batchSize: 4, importOnnxRuntime });

      const [a, b] = await Promise.all([first.embed(["alpha"], "add"), second.embed(["alpha"], "add")]);
      await first.embed(["beta"], "search");
      await second.embed(["gamma"], "search");

      expect(counts).toEqual({ imports: 1, sessions: 1 });
      expect(maxDifference(a[0] ?? [], b[0] ?? [])).toBe(0);
      await expect(second.runtime()).resolves.toBe("native");
    },
    LOAD_TIMEOUT,
  );

  it(
    'falls back to WASM on "auto" when onnxruntime-node cannot be imported',
    async () => {
      const missing = async () => {
        throw Object.assign(new Error("Cannot find package 'onnxruntime-node'"), {
          code: "ERR_MODULE_NOT_FOUND",
        });
      };
      const embedder = createMiniLmEmbedder({ runtime: "auto", importOnnxRuntime: missing });

      await expect(embedder.runtime()).resolves.toBe("wasm");
      expectSameVectors(await embedder.embed(golden.texts, "add"), golden.vectors);
    },
    LOAD_TIMEOUT,
  );

  it(
    'reports EMBEDDER_UNAVAILABLE on "native" when onnxruntime-node cannot be imported',
    async () => {
      const missing = async () => {
        throw new Error("Cannot find package 'onnxruntime-node'");
      };
      const embedder = createMiniLmEmbedder({ runtime: "native", importOnnxRuntime: missing });

      await expect(embedder.embed(["hello"], "add")).rejects.toMatchObject({ code: "EMBEDDER_UNAVAILABLE" });
      await expect(embedder.runtime()).rejects.toMatchObject({ code: "EMBEDDER_UNAVAILABLE" });
    },
    LOAD_TIMEOUT,
  );
});
