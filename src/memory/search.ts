/**
 * `search`: hybrid retrieval. Candidates are the union of the dense top-K, the keyword top-K (BM25
 * over each memory's window: its text and its conversation neighbours) and the memories linked to an
 * entity the query names; each is scored on every signal (`search/fuse.ts`) and the best `topK`
 * above `threshold` are returned.
 *
 * @module
 */

import type { MemoryContext } from "../core/context.js";
import { embedTexts } from "../core/embed-texts.js";
import { checkText } from "../core/inputs.js";
import { readFilter } from "../core/read-filter.js";
import { readVisibility } from "../core/visibility.js";
import { warnOnce } from "../core/warn-once.js";
import { LucidError } from "../errors.js";
import type { FilterNode } from "../filters/filter.js";
import { FUSION_WEIGHTS } from "../search/fuse.js";
import { namesIn, withoutNames } from "../search/query-names.js";
import {
  type CandidateFacts,
  idsWorthScoring,
  type RankedCandidate,
  rankCandidates,
} from "../search/rank.js";
import type { EntityHit, EntityQuery, SearchPort } from "../store/ports/search.js";
import { extractEntities } from "../text/entities.js";
import { keywordTerms } from "../text/keywords.js";
import { asksForTime, datesNamed, statesTime, withinDates } from "../text/time-expressions.js";
import { toMemoryItem } from "./to-item.js";
import {
  type MemoryItem,
  SEARCH_MODES,
  type SearchMode,
  type SearchOptions,
  type SearchResult,
} from "./types.js";

export const DEFAULT_TOP_K = 20;
export const DEFAULT_THRESHOLD = 0.1;

/**
 * Each generator fetches this many candidates. Fixed rather than Mem0's `max(topK · 4, 60)`, so
 * the first results do not depend on how many were asked for: up to `topK` 100 every answer is a
 * prefix of a longer one.
 */
const CANDIDATE_POOL = 100;
const candidatePool = (topK: number) => Math.max(topK, CANDIDATE_POOL);

export async function searchMemories(
  context: MemoryContext,
  query: string,
  options: SearchOptions = {},
): Promise<SearchResult> {
  const text = checkText(query, context.maxTextBytes, "query");
  const topK = checkTopK(options.topK);
  const threshold = checkThreshold(options.threshold);
  const filter = readFilter(options, "search");
  const visibleAt = readVisibility(context, options.showExpired, options.referenceDate);
  if (options.rerank === true) warnNoReranker();
  if (topK === 0) return { results: [] };

  const mode = checkMode(options.mode);
  const useDense = mode !== "keyword";
  const useKeyword = mode !== "dense";
  const store = context.store;
  const queryEntities = extractEntities(text);
  const names = namesIn(queryEntities);
  const speakers = names.length === 0 ? [] : await store.speakersNamed({ filter, visibleAt, names });
  // A person the scope knows by name says little about what the question means, and drowns the
  // rest of a short question in the embedding; the speaker prior carries it instead.
  const [vector] = useDense ? await embedTexts(context, [withoutNames(text, speakers)], "search") : [];
  const terms = useKeyword ? keywordTerms(text) : [];
  const entityKeys = mode === "hybrid" ? [...new Set(queryEntities.map((entity) => entity.key))] : [];
  const dates = useKeyword ? datesNamed(text) : [];
  const queryFacts = {
    speakers: useKeyword && speakers.length > 0,
    dates: dates.length > 0,
    timeQuestion: useKeyword && asksForTime(text),
  };
  const weights = useKeyword ? FUSION_WEIGHTS : { ...FUSION_WEIGHTS, thread: 0 };
  const k = candidatePool(topK);

  const [dense, keyword, entityOnly] = await Promise.all([
    vector === undefined ? [] : store.searchDense({ filter, visibleAt, vector, k }),
    store.searchKeyword({ filter, visibleAt, terms, k }),
    store.searchEntities({ filter, visibleAt, keys: entityKeys, limit: k }),
  ]);
  const generated = [...dense, ...keyword];
  const entity = [
    ...entityOnly,
    ...(await entityLinksOf(store, { filter, visibleAt, keys: entityKeys }, generated, entityOnly)),
  ];
  const all = [...generated, ...entity];
  // The speaker, date and time priors need each candidate's row; the thread comes with every hit.
  const needRows = queryFacts.speakers || queryFacts.dates || queryFacts.timeQuestion;
  const rows = needRows
    ? await store.candidateRows([...new Set(all.map((hit) => hit.id))], { withText: queryFacts.timeQuestion })
    : [];
  const facts = new Map<string, CandidateFacts>();
  for (const hit of all) {
    if (useKeyword && hit.thread !== undefined && hit.thread !== null)
      facts.set(hit.id, { thread: hit.thread, speaker: false, date: false, time: false });
  }
  for (const row of rows) {
    facts.set(row.id, {
      ...(useKeyword && row.thread !== null ? { thread: row.thread } : {}),
      speaker: row.actorId !== null && speakers.includes(row.actorId.toLowerCase()),
      date: withinDates(row.createdAt, dates),
      time: queryFacts.timeQuestion && statesTime(row.text ?? ""),
    });
  }
  const candidates = {
    dense,
    keyword,
    entity,
    termCount: terms.length,
    denseUsed: useDense,
    query: queryFacts,
    facts,
  };
  const missing = vector === undefined ? [] : idsWorthScoring(candidates, topK, k, weights);
  const extraSimilarity =
    vector === undefined ? new Map() : await similarities(store, filter, vector, missing);
  const ranked = rankCandidates({ ...candidates, extraSimilarity }, weights);

  const passing = ranked.filter((candidate) => candidate.score.final >= threshold);
  // Candidates tied with the last one kept compete for its place: the newest wins (below).
  const last = passing[Math.min(topK, passing.length) - 1]?.score.final;
  const contenders = passing.filter(
    (candidate, index) => index < topK || (last !== undefined && candidate.score.final === last),
  );
  const chosenRows = await store.getMemories(contenders.map((candidate) => candidate.id));
  const rowById = new Map(chosenRows.map((row) => [row.id, row]));
  const scored = contenders.flatMap((candidate) => {
    const row = rowById.get(candidate.id);
    return row === undefined ? [] : [{ candidate, row }];
  });
  // Equal scores, as in Mem0: the most recently updated first, then the most recently created.
  scored.sort(
    (a, b) =>
      b.candidate.score.final - a.candidate.score.final ||
      compareDesc(a.row.updatedAt, b.row.updatedAt) ||
      compareDesc(a.row.createdAt, b.row.createdAt) ||
      (a.row.id < b.row.id ? -1 : a.row.id > b.row.id ? 1 : 0),
  );
  const results: MemoryItem[] = scored
    .slice(0, topK)
    .map(({ candidate, row }) =>
      withScore(toMemoryItem(row, context.timeZone), candidate, threshold, options.explain === true),
    );
  return { results };
}

/** `rerank: true` is Mem0's; Lucid has no reranker, and says so once rather than ignore it. */
function warnNoReranker(): void {
  warnOnce(
    "LUCID_NO_RERANKER",
    "search({ rerank: true }) has no effect: Lucid has no reranker; results keep their fused score order.",
    { code: "LUCID_NO_RERANKER" },
  );
}

/** Newer ISO timestamps first. */
function compareDesc(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

/**
 * The entity links of the dense and keyword candidates the entity generator's own pool left out:
 * every candidate that names a query entity gets its boost, not only those that made that pool.
 */
async function entityLinksOf(
  store: SearchPort,
  query: Omit<EntityQuery, "limit" | "ids">,
  candidates: readonly { id: string }[],
  found: readonly EntityHit[],
): Promise<EntityHit[]> {
  if (query.keys.length === 0) return [];
  const seen = new Set(found.map((hit) => hit.id));
  const ids = [...new Set(candidates.map((hit) => hit.id))].filter((id) => !seen.has(id));
  if (ids.length === 0) return [];
  return store.searchEntities({ ...query, ids, limit: ids.length * query.keys.length });
}

/** Cosine similarity of memories found only by keyword or entity, via an exact dense query over just them. */
async function similarities(
  store: SearchPort,
  filter: FilterNode,
  vector: Float32Array,
  ids: readonly string[],
): Promise<Map<string, number>> {
  if (ids.length === 0) return new Map();
  const onlyThese: FilterNode = {
    kind: "and",
    children: [filter, { kind: "condition", field: "id", op: "in", value: ids }],
  };
  const hits = await store.searchDense({ filter: onlyThese, vector, k: ids.length });
  return new Map(hits.map((hit) => [hit.id, hit.similarity]));
}

function withScore(
  item: MemoryItem,
  candidate: RankedCandidate,
  threshold: number,
  explain: boolean,
): MemoryItem {
  const scored: MemoryItem = { ...item, score: round(candidate.score.final) };
  if (explain) {
    scored.score_details = {
      semanticScore: round(candidate.signals.semantic),
      bm25Score: round(candidate.signals.bm25),
      entityBoost: round(candidate.signals.entity),
      speakerMatch: candidate.signals.speaker,
      dateMatch: candidate.signals.date,
      timeMatch: candidate.signals.time,
      rawScore: round(candidate.score.raw),
      maxPossibleScore: round(candidate.score.maxPossible),
      baseScore: round(candidate.score.base),
      finalScore: round(candidate.score.final),
      threshold,
      matchedBy: candidate.matchedBy,
    };
  }
  return scored;
}

const round = (value: number) => Math.round(value * 1e6) / 1e6;

function checkMode(mode: unknown): SearchMode {
  if (mode === undefined) return "hybrid";
  if (typeof mode === "string" && (SEARCH_MODES as readonly string[]).includes(mode))
    return mode as SearchMode;
  throw new LucidError(
    "INVALID_ARGUMENT",
    `mode must be one of ${SEARCH_MODES.join(", ")}, got ${JSON.stringify(mode)}.`,
  );
}

function checkTopK(topK: unknown): number {
  if (topK === undefined) return DEFAULT_TOP_K;
  if (typeof topK !== "number" || !Number.isInteger(topK) || topK < 0) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `topK must be a non-negative integer, got ${JSON.stringify(topK)}.`,
    );
  }
  return topK;
}

function checkThreshold(threshold: unknown): number {
  if (threshold === undefined) return DEFAULT_THRESHOLD;
  if (typeof threshold !== "number" || !(threshold >= 0 && threshold <= 1)) {
    throw new LucidError(
      "INVALID_ARGUMENT",
      `threshold must be a number from 0 to 1, got ${JSON.stringify(threshold)}.`,
    );
  }
  return threshold;
}
