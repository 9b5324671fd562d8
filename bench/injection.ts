/**
 * The injection judge (`src/injection/judge-injection.ts`): learned and measured.
 *
 *   npx tsx bench/injection.ts           measure the shipped weights: the development corpus
 *                                        cross-validated, the held-out corpus once, throughput
 *   npx tsx bench/injection.ts --tune    learn the weights on the development corpus and write
 *                                        src/injection/injection-weights.json
 *
 * Development: `test/fixtures/injection-dev/` (L2 logistic regression, 5 folds grouped by style, so
 * each fold is scored on styles its model never saw). Held out: `test/fixtures/injection-independent/`,
 * written from the rules alone by someone who never read the judge — only aggregates are printed,
 * and nothing here ever fits on it.
 *
 * @module
 */

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { FEATURE_NAMES, injectionFeatures } from "../src/injection/injection-features.js";
import { INJECTION_WEIGHTS, judgeInjection } from "../src/injection/judge-injection.js";
import { type Example, fitLogistic, type LogisticModel, predict } from "./logistic.js";
import { REPO_ROOT } from "./paths.js";

const { values: flags } = parseArgs({ options: { tune: { type: "boolean", default: false } } });

interface Item {
  readonly id: string;
  readonly text: string;
  readonly label: "injection" | "user_rule" | "ordinary";
  readonly style: string;
  readonly language: string;
}

const DEV = join(REPO_ROOT, "test/fixtures/injection-dev/items.jsonl");
const HELD_OUT = join(REPO_ROOT, "test/fixtures/injection-independent/items.jsonl");
const WEIGHTS = join(REPO_ROOT, "src/injection/injection-weights.json");
const FOLDS = 5;
const L2_GRID = [0.0003, 0.001, 0.003, 0.01, 0.03];
/** A user's own rule wrongly flagged costs more than a missed attack a person will still see in review. */
const USER_RULE_WEIGHT = 2;
const PRECISION_TARGET = 0.97;

function readItems(path: string): Item[] {
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line.trim() !== "")
    .map((line) => JSON.parse(line) as Item);
}

function vector(text: string): number[] {
  const { values } = injectionFeatures(text);
  return FEATURE_NAMES.map((name) => values[name]);
}

function example(item: Item, x: number[]): Example {
  return {
    x,
    y: item.label === "injection" ? 1 : 0,
    weight: item.label === "user_rule" ? USER_RULE_WEIGHT : 1,
  };
}

/** Out-of-fold scores: each item scored by the model of the folds without its style. */
function outOfFold(items: readonly Item[], xs: readonly number[][], l2: number): number[] {
  const styles = [...new Set(items.map((item) => `${item.label}:${item.style}`))].sort();
  const foldOf = new Map(styles.map((style, index) => [style, index % FOLDS]));
  const scores = new Array<number>(items.length).fill(0);
  for (let fold = 0; fold < FOLDS; fold++) {
    const inFold = (item: Item) => foldOf.get(`${item.label}:${item.style}`) === fold;
    const train = items.flatMap((item, i) => (inFold(item) ? [] : [example(item, xs[i] as number[])]));
    const model = fitLogistic(train, { l2 });
    items.forEach((item, i) => {
      if (inFold(item)) scores[i] = predict(model, xs[i] as number[]);
    });
  }
  return scores;
}

interface Counts {
  readonly recall: number;
  readonly precision: number;
  readonly userRulesFlagged: number;
  readonly ordinaryFlagged: number;
  readonly injections: number;
  readonly userRules: number;
  readonly ordinary: number;
}

function counts(items: readonly Item[], flagged: readonly boolean[]): Counts {
  const of = (label: Item["label"]) => items.filter((item) => item.label === label).length;
  const flaggedOf = (label: Item["label"]) =>
    items.filter((item, i) => item.label === label && flagged[i]).length;
  const hits = flaggedOf("injection");
  const all = flagged.filter(Boolean).length;
  return {
    recall: round(hits / Math.max(1, of("injection"))),
    precision: round(all === 0 ? 1 : hits / all),
    userRulesFlagged: flaggedOf("user_rule"),
    ordinaryFlagged: flaggedOf("ordinary"),
    injections: of("injection"),
    userRules: of("user_rule"),
    ordinary: of("ordinary"),
  };
}

/** The lowest threshold whose out-of-fold precision meets the target with no user rule above it. */
function chooseThreshold(items: readonly Item[], scores: readonly number[]): number {
  const candidates = [...new Set(scores.map((score) => round(score)))].sort((a, b) => a - b);
  for (const threshold of candidates) {
    if (threshold < 0.5) continue;
    const flagged = scores.map((score) => score >= threshold);
    const result = counts(items, flagged);
    if (result.precision >= PRECISION_TARGET && result.userRulesFlagged === 0) return threshold;
  }
  return 0.99;
}

function logLoss(items: readonly Item[], scores: readonly number[]): number {
  let loss = 0;
  items.forEach((item, i) => {
    const p = Math.min(1 - 1e-9, Math.max(1e-9, scores[i] as number));
    loss -= item.label === "injection" ? Math.log(p) : Math.log(1 - p);
  });
  return loss / items.length;
}

function tune(): void {
  const items = readItems(DEV);
  const xs = items.map((item) => vector(item.text));
  const trials = L2_GRID.map((l2) => {
    const scores = outOfFold(items, xs, l2);
    return { l2, scores, loss: logLoss(items, scores) };
  });
  const best = trials.reduce((a, b) => (b.loss < a.loss ? b : a));
  const threshold = chooseThreshold(items, best.scores);
  const cv = counts(
    items,
    best.scores.map((score) => score >= threshold),
  );
  const model: LogisticModel = fitLogistic(
    items.map((item, i) => example(item, xs[i] as number[])),
    { l2: best.l2 },
  );
  const weights = Object.fromEntries(FEATURE_NAMES.map((name, i) => [name, round(model.weights[i] ?? 0)]));
  const file = {
    about:
      "Learned by `npx tsx bench/injection.ts --tune` (L2 logistic regression; see src/injection/judge-injection.ts). Do not edit by hand.",
    trainedOn: `test/fixtures/injection-dev/items.jsonl (${items.length} items), ${FOLDS} folds grouped by style, l2 ${best.l2}`,
    trainedAt: new Date().toISOString().slice(0, 10),
    crossValidated: { ...cv, threshold, logLoss: round(best.loss) },
    bias: round(model.bias),
    threshold,
    weights,
  };
  writeFileSync(WEIGHTS, `${JSON.stringify(file, null, 2)}\n`);
  console.log(`l2 by out-of-fold log loss: ${trials.map((t) => `${t.l2}: ${round(t.loss)}`).join(", ")}`);
  console.log(`chose l2 ${best.l2}, threshold ${threshold}`);
  console.log("cross-validated on the development corpus:", cv);
  console.log(`wrote ${WEIGHTS}`);
}

function measure(): void {
  const dev = readItems(DEV);
  const devScores = outOfFold(
    dev,
    dev.map((item) => vector(item.text)),
    l2Of(),
  );
  const devCv = counts(
    dev,
    devScores.map((score) => score >= INJECTION_WEIGHTS.threshold),
  );
  const heldOut = readItems(HELD_OUT);
  const verdicts = heldOut.map((item) => judgeInjection(item.text).injection);
  const result = counts(heldOut, verdicts);
  const languages = [
    ...new Set(heldOut.filter((item) => item.language !== "en").map((item) => item.language)),
  ];
  const nonEnglish = heldOut.filter((item) => item.language !== "en");
  const english = heldOut.filter((item) => item.language === "en");
  const recallOf = (subset: readonly Item[]) =>
    counts(
      subset,
      subset.map((item) => judgeInjection(item.text).injection),
    ).recall;

  const texts = [...dev, ...heldOut].map((item) => item.text);
  const rounds = Math.max(1, Math.ceil(20_000 / texts.length));
  const started = performance.now();
  for (let r = 0; r < rounds; r++) for (const text of texts) judgeInjection(text);
  const perSecond = Math.round((rounds * texts.length) / ((performance.now() - started) / 1000));

  console.log(
    `weights: ${INJECTION_WEIGHTS.trainedOn}, ${INJECTION_WEIGHTS.trainedAt}; threshold ${INJECTION_WEIGHTS.threshold}`,
  );
  console.log("development corpus, cross-validated by style:", devCv);
  console.log("held-out corpus:", result);
  console.log(
    `held-out recall: English ${recallOf(english)}, other languages (${languages.sort().join(", ")}) ${recallOf(nonEnglish)}`,
  );
  console.log(`throughput: ${perSecond} texts/s (one core)`);
}

function l2Of(): number {
  const match = /l2 ([\d.]+)/u.exec(INJECTION_WEIGHTS.trainedOn);
  return match === null ? 0.003 : Number(match[1]);
}

function round(value: number): number {
  return Math.round(value * 1000) / 1000;
}

if (flags.tune) tune();
else measure();
