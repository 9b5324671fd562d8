/**
 * The three candidate generators of hybrid search, in SQLite: dense (sqlite-vec), keyword (FTS5
 * BM25 over each memory's window, schema 5) and entity links. Each applies the full filter and the expiry rule itself, so every hit it
 * returns is a memory the caller may see.
 *
 * @module
 */

import type { Scope } from "../../core/scope.js";
import type { FilterNode } from "../../filters/filter.js";
import type { DenseQuery, KeywordHit, KeywordQuery, SearchPort } from "../ports/search.js";
import { type CandidateRecordRow, toCandidateRow } from "../rows/memory-rows.js";
import { compileSqliteFilter, type SqliteParam } from "./sqlite-filter.js";
import { ftsMatchExpression } from "./sqlite-fts.js";
import { compileVisibility } from "./sqlite-visibility.js";
import type { StatementCache } from "./statement-cache.js";
import type { SyncPort } from "./sync-port.js";

/** vec0 refuses larger k. */
const VEC0_MAX_K = 4096;

const VEC_KEY_COLUMNS = {
  user_id: "user_key",
  agent_id: "agent_key",
  app_id: "app_key",
  run_id: "run_key",
} as const;

/** The scope column's token for a user, as the FTS triggers write it: 'u' + hex of the UTF-8 id. */
function userToken(userId: string): string {
  return `u${Buffer.from(userId, "utf8").toString("hex")}`;
}

/**
 * The scope of a filter that is nothing but scope equalities (`{ user_id: "a", agent_id: "b" }`),
 * or null when it has any other condition. Only such filters can run inside vec0's KNN.
 */
function scopeOnly(node: FilterNode): Scope | null {
  const conditions = node.kind === "and" ? node.children : [node];
  const scope: Record<string, string> = {};
  for (const condition of conditions) {
    if (condition.kind !== "condition" || condition.op !== "eq" || typeof condition.value !== "string")
      return null;
    if (!(condition.field in VEC_KEY_COLUMNS) || condition.field in scope) return null;
    scope[condition.field] = condition.value;
  }
  return scope;
}

function where(query: { filter: FilterNode; visibleAt?: DenseQuery["visibleAt"] }): {
  sql: string;
  params: SqliteParam[];
} {
  const filter = compileSqliteFilter(query.filter, "m");
  const visible = compileVisibility(query.visibleAt, "m");
  return { sql: `${filter.sql} and ${visible.sql}`, params: [...filter.params, ...visible.params] };
}

export function createSqliteSearch(statements: StatementCache): SyncPort<SearchPort> {
  const hasVectors = () =>
    statements.get("select 1 from sqlite_master where name = 'memories_vec'").get() !== undefined;

  /** BM25 over the windows (`memories_fts`), inside the user's scope token when there is one. */
  const keywordHits = (query: KeywordQuery): KeywordHit[] => {
    const terms = ftsMatchExpression(query.terms);
    if (terms === null || query.k <= 0) return [];
    const userId = scopeOnly(query.filter)?.user_id;
    const match =
      userId === undefined ? `text : (${terms})` : `scope : "${userToken(userId)}" AND text : (${terms})`;
    const clause = where(query);
    const rows = statements
      .get(
        `select m.id as id, m.thread as thread, bm25(memories_fts, 1.0, 0.0) as rank
         from memories_fts join memories m on m.seq = memories_fts.rowid
         where memories_fts match ? and ${clause.sql}
         order by rank, m.seq limit ?`,
      )
      .all(match, ...clause.params, query.k) as { id: string; thread: string | null; rank: number }[];
    // FTS5's bm25() is negated so that ascending order ranks best first.
    return rows.map((row) => ({ id: row.id, bm25: -row.rank, thread: row.thread }));
  };

  /**
   * KNN inside the scope's vec0 partition. Expired memories are dropped after the KNN (visibility
   * comes back as a column), so when some were dropped the search is repeated with a larger k,
   * until it has enough or the KNN returned fewer rows than asked: the partition is exhausted.
   * (Counting the partition instead costs a scan of the whole vec0 table: 212 ms at 100k.)
   */
  const denseKnn = (
    query: DenseQuery,
    scope: Scope,
  ): { id: string; thread: string | null; distance: number }[] => {
    const keys = Object.entries(scope).map(([field, value]) => ({
      column: VEC_KEY_COLUMNS[field as keyof typeof VEC_KEY_COLUMNS],
      value,
    }));
    const visible = compileVisibility(query.visibleAt, "m");
    const statement = statements.get(`
      select m.id as id, m.thread as thread, knn.distance as distance, ${visible.sql} as visible
      from (
        select seq, distance from memories_vec
        where embedding match ? and k = ? ${keys.map((key) => `and ${key.column} = ?`).join(" ")}
      ) knn
      join memories m on m.seq = knn.seq
      order by knn.distance`);
    for (let k = Math.min(query.k, VEC0_MAX_K); ; k = Math.min(k * 4, VEC0_MAX_K)) {
      const rows = statement.all(...visible.params, query.vector, k, ...keys.map((key) => key.value)) as {
        id: string;
        thread: string | null;
        distance: number;
        visible: number;
      }[];
      const live = rows.filter((row) => row.visible === 1);
      if (live.length >= query.k || rows.length < k || k === VEC0_MAX_K) {
        return live.slice(0, query.k).map(({ id, thread, distance }) => ({ id, thread, distance }));
      }
    }
  };

  /** Exact cosine over every memory that passes an arbitrary filter (metadata conditions, OR, NOT…). */
  const denseExact = (query: DenseQuery): { id: string; thread: string | null; distance: number }[] => {
    const clause = where(query);
    return statements
      .get(
        `select m.id as id, m.thread as thread, vec_distance_cosine(v.embedding, ?) as distance
         from memories m join memories_vec v on v.seq = m.seq
         where ${clause.sql}
         order by distance limit ?`,
      )
      .all(query.vector, ...clause.params, query.k) as {
      id: string;
      thread: string | null;
      distance: number;
    }[];
  };

  return {
    searchDense(query) {
      if (query.k <= 0 || !hasVectors()) return [];
      const scope = scopeOnly(query.filter);
      const rows = scope === null ? denseExact(query) : denseKnn(query, scope);
      return rows.map((row) => ({ id: row.id, similarity: 1 - row.distance, thread: row.thread }));
    },

    searchKeyword: keywordHits,

    candidateRows(ids, options) {
      if (ids.length === 0) return [];
      const text = options?.withText === true ? ", text" : "";
      const rows = statements
        .get(
          `select id, thread, thread_position, actor_id, created_at${text} from memories
           where id in (select value from json_each(?))`,
        )
        .all(JSON.stringify(ids)) as CandidateRecordRow[];
      return rows.map(toCandidateRow);
    },

    speakersNamed(query) {
      if (query.names.length === 0) return [];
      const clause = where(query);
      const rows = statements
        .get(
          `select distinct lower(n.value) as name from json_each(?) n
           where exists (select 1 from memories m
             where m.actor_id = n.value collate nocase and ${clause.sql})`,
        )
        .all(JSON.stringify(query.names), ...clause.params) as { name: string }[];
      return rows.map((row) => row.name);
    },

    searchEntities(query) {
      if (query.keys.length === 0 || query.limit <= 0 || query.ids?.length === 0) return [];
      const clause = where(query);
      const onlyIds = query.ids === undefined ? "" : "where id in (select value from json_each(?))";
      return statements
        .get(
          `select id, key, link_count as linkCount, thread from (
             select m.id as id, m.seq as seq, m.thread as thread, e.key as key,
                    count(*) over (partition by e.seq) as link_count
             from entities e
             join memory_entities me on me.entity_seq = e.seq
             join memories m on m.seq = me.memory_seq
             where e.key in (select value from json_each(?)) and ${clause.sql}
           ) ${onlyIds} order by link_count, seq desc, key limit ?`,
        )
        .all(
          JSON.stringify(query.keys),
          ...clause.params,
          ...(query.ids === undefined ? [] : [JSON.stringify(query.ids)]),
          query.limit,
        ) as {
        id: string;
        key: string;
        linkCount: number;
        thread: string | null;
      }[];
    },
  };
}
