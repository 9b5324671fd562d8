/**
 * A deterministic synthetic corpus for the scale benchmark: template sentences about people,
 * places, tools and things (so FTS5 and the entity index have something to match), each with a
 * 512-d unit vector. Vectors are built from per-word directions plus noise, so memories sharing a
 * topic, a thing or a person point the same way and dense search ranks meaningfully.
 *
 * @module
 */

import { createRandom, hashSeed, type Random } from "./prng.js";

export const SYNTHETIC_DIMENSION = 512;

const PEOPLE = (
  "Alice Bruno Carmen Dmitri Elena Farid Greta Hiroshi Ines Jonas Kavya Liam Mateo Nadia Oskar Priya " +
  "Quentin Rosa Samir Tamsin Ugo Vera Wei Ximena Yusuf Zara Amara Bastian Chloe Diego Esme Felix " +
  "Gianna Hamid Isla Jasper Keiko Lorenzo Maya Nikolai Olivia Pablo Rania Stefan Talia Umar Viktor " +
  "Willa Xavier Yara Zoltan Anya Boris Celine Dario Eliza Fabian Hana Ivo Julia"
).split(" ");
const PLACES = (
  "Lisbon Berlin Osaka Toronto Nairobi Lyon Porto Krakow Seattle Bergen Valencia Hanoi Tallinn " +
  "Montreal Ghent Cusco Zagreb Dublin Bologna Leeds Denver Austin Melbourne Gdansk Seville Utrecht " +
  "Kyoto Oslo Tbilisi Boston"
).split(" ");
const TOOLS = (
  "PostgreSQL Redis Kafka Kubernetes Terraform Grafana Figma Notion Jira Postman Docker Vercel " +
  "Cloudflare Sentry Datadog Airflow Snowflake BigQuery Supabase Prisma"
).split(" ");
const DAYS = "Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split(" ");
const MONTHS = "January March April June July September October December".split(" ");

interface Topic {
  readonly name: string;
  readonly things: readonly string[];
  readonly templates: readonly string[];
  readonly questions: readonly string[];
}

const TOPICS: readonly Topic[] = [
  {
    name: "cooking",
    things: ["lasagna", "ramen", "paella", "sourdough bread", "tacos", "green curry", "risotto", "dumplings"],
    templates: [
      "{person} cooked {thing} for {number} friends at the flat in {place} on {day}.",
      "{person} wants to learn a better {thing} recipe before the dinner party in {month}.",
    ],
    questions: ["What did {person} cook for friends?", "Who is making {thing}?"],
  },
  {
    name: "travel",
    things: [
      "train tickets",
      "a hostel",
      "museum passes",
      "a rental car",
      "a ferry crossing",
      "a hiking guide",
    ],
    templates: [
      "{person} booked a trip to {place} in {month} and budgeted {number}0 euros for {thing}.",
      "{person} is looking for {thing} near the old town of {place} for {number} nights.",
    ],
    questions: ["Where is {person} travelling?", "What did {person} book in {place}?"],
  },
  {
    name: "engineering",
    things: [
      "billing-api",
      "auth-gateway",
      "search-indexer",
      "report-worker",
      "events pipeline",
      "payments ledger",
    ],
    templates: [
      "{person} migrated the {thing} to {tool} and cut p95 latency by {number} percent.",
      "{person} is on call for the {thing} this week; alerts go through {tool}.",
    ],
    questions: ["Which tool does the {thing} use?", "What did {person} change in the {thing}?"],
  },
  {
    name: "music",
    things: ["guitar", "piano", "drums", "violin", "saxophone", "cello"],
    templates: [
      "{person} practises {thing} for {number} minutes every {day} before rehearsal in {place}.",
      "{person} bought a second-hand {thing} in {place} for {number}0 dollars.",
    ],
    questions: ["What instrument does {person} play?", "When does {person} practise {thing}?"],
  },
  {
    name: "fitness",
    things: ["running shoes", "a rowing machine", "kettlebells", "a yoga mat", "a road bike", "swim goggles"],
    templates: [
      "{person} ran {number} kilometres along the river in {place} wearing new {thing}.",
      "{person} set a goal of training {number} hours a week with {thing} until {month}.",
    ],
    questions: ["How is {person} training?", "What fitness gear did {person} buy?"],
  },
  {
    name: "work",
    things: ["quarterly roadmap", "design review", "budget plan", "hiring loop", "incident postmortem"],
    templates: [
      "{person} scheduled the {thing} with the {tool} team for {day} at {number} o'clock.",
      "{person} needs feedback on the {thing} before {month}; the draft lives in {tool}.",
    ],
    questions: ["When is the {thing}?", "What does {person} need feedback on?"],
  },
  {
    name: "reading",
    things: ['"Dune"', '"Middlemarch"', '"The Left Hand of Darkness"', '"Piranesi"', '"Beloved"', '"Stoner"'],
    templates: [
      "{person} finished reading {thing} and recommended it to the book club in {place}.",
      "{person} is {number} pages into {thing} and reads it every {day} evening.",
    ],
    questions: ["What is {person} reading?", "Who recommended {thing}?"],
  },
  {
    name: "pets",
    things: ["beagle", "tabby cat", "parrot", "greyhound", "rabbit", "tortoise"],
    templates: [
      "{person} adopted a {thing} from a shelter in {place} last {month}.",
      "{person} takes the {thing} to the vet in {place} every {number} weeks.",
    ],
    questions: ["What pet does {person} have?", "Where does {person} take the {thing}?"],
  },
];

export interface SyntheticMemory {
  readonly text: string;
  /** Index of its user, 0 … users − 1; memories are spread evenly, in blocks. */
  readonly user: number;
  readonly topic: number;
  readonly thing: string;
  readonly person: string;
}

export interface SyntheticQuery {
  readonly text: string;
  /** Index of the memory the query was written from. */
  readonly target: number;
}

export interface SyntheticCorpus {
  readonly memories: readonly SyntheticMemory[];
  /** Vectors of memories and queries, keyed by text, for a precomputed embedder. */
  readonly vectors: Map<string, Float32Array>;
  /** Queries written from the memories in [0, queryPool). */
  query(random: Random, queryPool: number): SyntheticQuery;
}

/**
 * `count` memories spread evenly over `users` in blocks (memory i belongs to user ⌊i · users / count⌋),
 * then `extra` more dealt round-robin, for adds into an already built store. Each user talks about
 * its own few people, places and tools.
 */
export function generateCorpus(options: {
  count: number;
  extra: number;
  users: number;
  seed: number;
}): SyntheticCorpus {
  const { users } = options;
  const count = options.count + options.extra;
  const random = createRandom(options.seed);
  const directions = new WordDirections();
  const worlds = Array.from({ length: users }, () => ({
    people: sample(random, PEOPLE, 8),
    places: sample(random, PLACES, 5),
    tools: sample(random, TOOLS, 5),
  }));
  const vectors = new Map<string, Float32Array>();
  const memories: SyntheticMemory[] = [];
  const block = new Float32Array(count * SYNTHETIC_DIMENSION);
  for (let index = 0; index < count; index++) {
    const user =
      index < options.count ? Math.floor((index * users) / options.count) : (index - options.count) % users;
    const world = worlds[user] as (typeof worlds)[number];
    let memory: SyntheticMemory;
    do {
      const topic = random.int(TOPICS.length);
      const spec = TOPICS[topic] as Topic;
      const slots = {
        person: random.pick(world.people),
        place: random.pick(world.places),
        tool: random.pick(world.tools),
        thing: random.pick(spec.things),
        number: String(2 + random.int(98)),
        day: random.pick(DAYS),
        month: random.pick(MONTHS),
      };
      memory = {
        text: fill(random.pick(spec.templates), slots),
        user,
        topic,
        thing: slots.thing,
        person: slots.person,
      };
    } while (vectors.has(memory.text));
    const vector = block.subarray(index * SYNTHETIC_DIMENSION, (index + 1) * SYNTHETIC_DIMENSION);
    directions.mix(vector, memory, 0.6);
    vectors.set(memory.text, vector);
    memories.push(memory);
  }
  return {
    memories,
    vectors,
    query(queryRandom, queryPool) {
      const target = queryRandom.int(Math.min(queryPool, memories.length));
      const memory = memories[target] as SyntheticMemory;
      const spec = TOPICS[memory.topic] as Topic;
      const text = fill(queryRandom.pick(spec.questions), { person: memory.person, thing: memory.thing });
      if (!vectors.has(text)) {
        const vector = new Float32Array(SYNTHETIC_DIMENSION);
        directions.mix(vector, memory, 0.9);
        vectors.set(text, vector);
      }
      return { text, target };
    },
  };
}

function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => slots[name] ?? "");
}

function sample<T>(random: Random, list: readonly T[], n: number): T[] {
  const copy = [...list];
  for (let index = copy.length - 1; index > 0; index--) {
    const other = random.int(index + 1);
    [copy[index], copy[other]] = [copy[other] as T, copy[index] as T];
  }
  return copy.slice(0, n);
}

/** A stable random unit direction per word, and the weighted mixes that make sentence vectors. */
class WordDirections {
  private readonly cache = new Map<string, Float32Array>();

  /** topic + thing + person + noise (seeded by the text), normalised, written into `out`. */
  mix(out: Float32Array, memory: SyntheticMemory, noise: number): void {
    const parts: [Float32Array, number][] = [
      [this.of(`topic:${memory.topic}`), 1],
      [this.of(`thing:${memory.thing}`), 0.7],
      [this.of(`person:${memory.person}`), 0.5],
    ];
    const random = createRandom(hashSeed(memory.text));
    let norm = 0;
    for (let dim = 0; dim < out.length; dim++) {
      let value = (noise * random.gaussian()) / Math.sqrt(out.length);
      for (const [direction, weight] of parts) value += weight * (direction[dim] as number);
      out[dim] = value;
      norm += value * value;
    }
    const scale = 1 / Math.sqrt(norm);
    for (let dim = 0; dim < out.length; dim++) out[dim] = (out[dim] as number) * scale;
  }

  private of(word: string): Float32Array {
    let direction = this.cache.get(word);
    if (direction === undefined) {
      const random = createRandom(hashSeed(word));
      direction = new Float32Array(SYNTHETIC_DIMENSION);
      let norm = 0;
      for (let dim = 0; dim < direction.length; dim++) {
        const value = random.gaussian();
        direction[dim] = value;
        norm += value * value;
      }
      for (let dim = 0; dim < direction.length; dim++)
        direction[dim] = (direction[dim] as number) / Math.sqrt(norm);
      this.cache.set(word, direction);
    }
    return direction;
  }
}
