/**
 * Secret detector benchmark: precision and recall on the labelled corpus
 * (test/fixtures/secrets), and throughput on a realistic stream of short memories of which about
 * 1% carry a secret.
 *
 *   npx tsx bench/secrets.ts [--memories 100000] [--secret-rate 0.01]
 *
 * @module
 */

import { performance } from "node:perf_hooks";
import { parseArgs } from "node:util";
import { BUILTIN_RULES, findSecrets } from "../src/secrets/index.js";
import { buildSecretCorpus } from "../test/fixtures/secrets/generate.js";
import { createRandom, type Random } from "./prng.js";

const { values } = parseArgs({
  options: {
    memories: { type: "string", default: "100000" },
    "secret-rate": { type: "string", default: "0.01" },
  },
});
const MEMORIES = Number(values.memories);
const SECRET_RATE = Number(values["secret-rate"]);

// Memory-shaped sentences: preferences, facts, plans and technical notes, some with words the
// prefilter reacts to ("key", "token", "password", "auth", "pass", "Asia", "basic", URLs).
const TEMPLATES = [
  "{name} prefers {lang} for backend services",
  "{name} is allergic to {food}",
  "{name} moved to {city} in {year}",
  "The {team} standup is at {hour} on weekdays",
  "{name} likes {food} and hates {food2}",
  "Deploys to {env} happen every {day}",
  "{name}'s manager is {name2}",
  "The {team} team owns the {service} service",
  "{name} wants weekly summaries on {day}",
  "Use {lang} with strict mode for new packages",
  "{name} is travelling to {city} next {day}",
  "The key insight from the {team} retro: ship smaller changes",
  "{name} asked to rotate the {service} API token every quarter",
  "The password reset flow for {service} is owned by {name}",
  "{name} passes the on-call pager to {name2} on {day}",
  "Auth for {service} goes through the {team} gateway",
  "{name} keeps the team's keys in the password manager",
  "The {service} dashboard is at https://{service}.internal.acme.dev/overview",
  "{name} reviewed PR #{num} on {service} and asked for tests",
  "Basic plan customers get {num} requests per minute on {service}",
  "{name} will present the Asia-Pacific numbers in {city}",
  "Bump {service} to v{num}.{num2}.0 after the {day} freeze",
  "The {service} cache key includes the tenant id",
  "{name} said the bearer token expiry is {num} minutes",
  "Remind {name} about the dentist on {day} at {hour}",
  "{name}'s daughter plays football on {day}s",
  "The {team} budget for {year} is {num} thousand",
  "{name} uses a standing desk and a split keyboard",
  "Lunch with {name2} in {city} was moved to {hour}",
  "{service} errors spiked after the {env} deploy on {day}",
];

const FILL: Record<string, readonly string[]> = {
  name: ["Alice", "Bob", "Priya", "Chen", "Maria", "Tomás", "Aiko", "Sam", "Noor", "Lena"],
  name2: ["Dana", "Eli", "Farah", "Gus", "Hana", "Ivan", "Jo", "Kofi"],
  lang: ["TypeScript", "Go", "Rust", "Python", "Kotlin"],
  food: ["peanuts", "shellfish", "gluten", "sushi", "tacos", "ramen"],
  food2: ["olives", "coriander", "mushrooms", "liquorice"],
  city: ["Lisbon", "Berlin", "Osaka", "Toronto", "Nairobi", "Austin"],
  year: ["2022", "2023", "2024", "2025"],
  team: ["platform", "billing", "search", "mobile", "data"],
  hour: ["9:30", "10:00", "14:15", "16:45"],
  env: ["staging", "production", "canary"],
  day: ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"],
  service: ["billing", "auth", "search", "ledger", "notifications", "gateway"],
  num: ["3", "12", "42", "100", "250"],
  num2: ["0", "1", "7", "19"],
};

function sentence(random: Random): string {
  return random.pick(TEMPLATES).replace(/\{(\w+)\}/g, (_, slot: string) => random.pick(FILL[slot] ?? ["?"]));
}

function formatRate(n: number): string {
  return Math.round(n).toLocaleString("en-US");
}

// 1. Precision and recall on the corpus: a positive counts only with the exact kind and span.
const corpus = buildSecretCorpus();
let truePositives = 0;
let falsePositives = 0;
let falseNegatives = 0;
for (const planted of corpus.positives) {
  const findings = findSecrets(planted.text);
  const hit = findings.some(
    (f) => f.kind === planted.kind && f.start === planted.start && f.end === planted.end,
  );
  if (hit) truePositives += 1;
  else falseNegatives += 1;
  falsePositives += findings.length - (hit ? 1 : 0);
}
for (const negative of corpus.negatives) falsePositives += findSecrets(negative.text).length;
const precision = truePositives / Math.max(1, truePositives + falsePositives);
const recall = truePositives / Math.max(1, truePositives + falseNegatives);
const kinds = new Set(BUILTIN_RULES.map((rule) => rule.kind)).size;

// 2. Throughput on a realistic stream.
const random = createRandom(7);
const stream: string[] = [];
let withSecrets = 0;
for (let index = 0; index < MEMORIES; index++) {
  if (random.next() < SECRET_RATE) {
    stream.push(random.pick(corpus.positives).text);
    withSecrets += 1;
  } else stream.push(sentence(random));
}
for (let index = 0; index < Math.min(5_000, stream.length); index++) findSecrets(stream[index] ?? "");

const runs: number[] = [];
let found = 0;
for (let run = 0; run < 3; run++) {
  found = 0;
  const started = performance.now();
  for (const text of stream) found += findSecrets(text).length;
  runs.push(performance.now() - started);
}
const best = Math.min(...runs);
const perSecond = (stream.length / best) * 1000;

// 3. Adversarial inputs: worst-case regex work on 32 KB.
const ADVERSARIAL: Record<string, string> = {
  "repeated 'password='": "password=".repeat(3_641),
  "repeated 'key:key:'": "key:".repeat(8_192),
  "repeated 'aws '": "aws ".repeat(8_192),
  "PEM headers, no END": "-----BEGIN RSA PRIVATE KEY-----\n".repeat(1_024),
  "one 32 KB base64 run": "A1b2C3d4".repeat(4_096),
  "repeated 'eyJ' dots": "eyJabcdefghij.".repeat(2_340),
  "repeated 'postgres://a:'": "postgres://a:".repeat(2_520),
};
const adversarial = Object.entries(ADVERSARIAL).map(([label, text]) => {
  const started = performance.now();
  findSecrets(text);
  return `${label} ${(performance.now() - started).toFixed(1)} ms`;
});

console.log(
  `corpus: ${corpus.positives.length} positives over ${kinds} kinds, ${corpus.negatives.length} hard negatives — TP ${truePositives}, FN ${falseNegatives}, FP ${falsePositives}`,
);
console.log(
  `stream: ${formatRate(stream.length)} memories (${withSecrets} with a secret, ${found} findings), runs ${runs.map((ms) => `${ms.toFixed(0)} ms`).join(" / ")}`,
);
console.log(`adversarial 32 KB inputs: ${adversarial.join("; ")}`);
console.log(
  `secrets (npx tsx bench/secrets.ts): precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)} on ${corpus.positives.length} positives / ${corpus.negatives.length} hard negatives (${kinds} kinds, ${BUILTIN_RULES.length} rules); ${formatRate(perSecond)} memories/s on ${formatRate(stream.length)} short memories with ${(SECRET_RATE * 100).toFixed(0)}% secrets (Node ${process.versions.node})`,
);
