/**
 * `npm run bench:embedders`: the local embedders side by side — MiniLM on onnxruntime-node, MiniLM
 * on the WASM engine, and USE lite — each in a fresh child process, so its peak RSS is its own.
 * Per embedder: load time (to the first vector), sentences per second over 500 conversational
 * sentences of 8–40 words embedded 100 per call, and peak RSS. The sentences are LoCoMo turns when
 * the shared LoCoMo file is present, else generated ones of the same length.
 *
 * @module
 */

import { spawnSync } from "node:child_process";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import type { Embedder } from "../src/embed/embedder.js";
import { createMiniLmEmbedder } from "../src/embed/local/minilm-embedder.js";
import { createUseLiteEmbedder } from "../src/embed/local/use-lite-embedder.js";
import { loadLocomo } from "./locomo-data.js";
import { locomoPath } from "./paths.js";
import { createRandom } from "./prng.js";

const SENTENCES = 500;
const CALL_SIZE = 100;

const EMBEDDERS = {
  "minilm-native": () => createMiniLmEmbedder({ runtime: "native" }),
  "minilm-wasm": () => createMiniLmEmbedder({ runtime: "wasm" }),
  "use-lite": () => createUseLiteEmbedder(),
} as const satisfies Record<string, () => Embedder>;
type EmbedderName = keyof typeof EMBEDDERS;

interface Measurement {
  name: EmbedderName;
  source: string;
  loadMs: number;
  sentencesPerSecond: number;
  maxRssMb: number;
}

const childIndex = process.argv.indexOf("--child");
if (childIndex >= 0) {
  const name = process.argv[childIndex + 1] as EmbedderName;
  console.log(JSON.stringify(await measure(name)));
} else {
  runAll();
}

async function measure(name: EmbedderName): Promise<Measurement> {
  const { sentences, source } = benchSentences();
  const embedder = EMBEDDERS[name]();
  const loadStart = performance.now();
  await embedder.embed(["The user has a dog named Poppy"], "add");
  const loadMs = performance.now() - loadStart;
  const start = performance.now();
  for (let i = 0; i < sentences.length; i += CALL_SIZE) {
    await embedder.embed(sentences.slice(i, i + CALL_SIZE), "add");
  }
  const seconds = (performance.now() - start) / 1000;
  return {
    name,
    source,
    loadMs,
    sentencesPerSecond: sentences.length / seconds,
    maxRssMb: process.resourceUsage().maxRSS / 1024,
  };
}

function runAll(): void {
  const script = fileURLToPath(import.meta.url);
  const rows: string[] = [];
  let source = "";
  for (const name of Object.keys(EMBEDDERS) as EmbedderName[]) {
    const child = spawnSync(process.execPath, ["--import", "tsx", script, "--child", name], {
      encoding: "utf8",
    });
    const line = child.stdout.trim().split("\n").at(-1) ?? "";
    if (child.status !== 0 || !line.startsWith("{")) {
      const reason =
        child.stderr
          .trim()
          .split("\n")
          .find((text) => text.includes("Error")) ?? `exit ${child.status}`;
      rows.push(`| ${name} | unavailable: ${reason.slice(0, 100)} | | |`);
      continue;
    }
    const result = JSON.parse(line) as Measurement;
    source = result.source;
    rows.push(
      `| ${name} | ${Math.round(result.loadMs)} ms | ${result.sentencesPerSecond.toFixed(0)} | ${result.maxRssMb.toFixed(0)} MB |`,
    );
  }
  const cpuList = cpus();
  console.log(
    `Machine: ${cpuList[0]?.model ?? "unknown CPU"}, ${cpuList.length} cores, Node ${process.version}. ` +
      `${SENTENCES} ${source}, ${CALL_SIZE} per call; one fresh process per embedder.\n`,
  );
  console.log("| embedder | load (to first vector) | sentences/s | peak RSS |");
  console.log("| --- | --- | --- | --- |");
  for (const row of rows) console.log(row);
}

/** 500 sentences of 8–40 words: LoCoMo turns if the file is there, else generated deterministically. */
function benchSentences(): { sentences: string[]; source: string } {
  const locomo = loadLocomo(locomoPath());
  if (locomo !== null) {
    const turns = locomo.turns
      .map((turn) => turn.text)
      .filter((text) => {
        const words = text.split(/\s+/).length;
        return words >= 8 && words <= 40;
      })
      .slice(0, SENTENCES);
    if (turns.length === SENTENCES) return { sentences: turns, source: "LoCoMo turns of 8–40 words" };
  }
  return { sentences: generatedSentences(), source: "generated sentences of 8–40 words (LoCoMo absent)" };
}

function generatedSentences(): string[] {
  const random = createRandom(7);
  const words = (
    "I we my sister the dog yesterday went to a new cafe downtown and really loved their coffee " +
    "because work has been busy lately so painting on weekends helps me relax after long meetings " +
    "with friends from school who moved to Lisbon last summer for a job at the museum"
  ).split(" ");
  return Array.from({ length: SENTENCES }, () => {
    const length = 8 + random.int(33);
    const sentence = Array.from({ length }, () => random.pick(words)).join(" ");
    return `${sentence.charAt(0).toUpperCase()}${sentence.slice(1)}.`;
  });
}
