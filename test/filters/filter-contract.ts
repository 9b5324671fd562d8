/**
 * The filter semantics of `src/filters/filter.ts` as data: seed rows and, per filter, exactly the
 * ids it must select. Every store backend runs these cases against a real database.
 */

export interface FixtureRow {
  readonly id: string;
  readonly user_id: string | null;
  readonly agent_id: string | null;
  readonly app_id: string | null;
  readonly run_id: string | null;
  readonly category: string | null;
  readonly metadata: Record<string, unknown>;
  readonly created_at: string;
  readonly updated_at: string;
}

function row(
  id: string,
  scope: Partial<Pick<FixtureRow, "user_id" | "agent_id" | "app_id" | "run_id" | "category">>,
  month: number,
  metadata: Record<string, unknown>,
): FixtureRow {
  const mm = String(month).padStart(2, "0");
  return {
    id,
    user_id: scope.user_id ?? null,
    agent_id: scope.agent_id ?? null,
    app_id: scope.app_id ?? null,
    run_id: scope.run_id ?? null,
    category: scope.category ?? null,
    metadata,
    created_at: `2026-${mm}-01T00:00:00.000Z`,
    updated_at: `2026-${mm}-02T00:00:00.000Z`,
  };
}

export const INJECTION = `O'Brien"; drop table memories; --`;

export const FIXTURE_ROWS: readonly FixtureRow[] = [
  row("m01", { user_id: "alice", category: "preference" }, 1, {
    importance: 0.9,
    tags: ["coffee", "Morning"],
    source: "chat",
    pinned: true,
    prefs: { color: "blue", size: 10 },
  }),
  row("m02", { user_id: "alice", category: "fact" }, 2, {
    importance: 0.5,
    tags: ["work"],
    source: "import",
    pinned: false,
    prefs: { color: "Red" },
  }),
  row("m03", { user_id: "alice" }, 3, { importance: 0.2, note: "Likes Coffee in the morning" }),
  row("m04", { user_id: "bob", category: "preference" }, 4, {
    importance: 1,
    tags: [],
    source: "chat",
    count: 3,
  }),
  row("m05", { user_id: "bob", agent_id: "helper", category: "fact" }, 5, {
    importance: "high",
    tags: ["coffee", "COFFEE beans"],
    pinned: 1,
  }),
  row("m06", { agent_id: "helper", run_id: "r1" }, 6, {}),
  row("m07", { user_id: "carol", app_id: "notes", category: "preference" }, 7, {
    source: null,
    tags: [1, 2, true],
    prefs: { color: "blue", nested: { deep: "x" } },
  }),
  row("m08", { user_id: "alice", run_id: "r1", category: "fact" }, 8, {
    importance: 0.75,
    "dash-key": "v",
    quote: INJECTION,
  }),
  row("m09", { user_id: "dave", category: "preference" }, 9, {
    flag: "true",
    importance: "0.5",
    count: "3",
    tags: [true],
  }),
  row("m10", { user_id: "alice", category: "preference" }, 10, {
    tags: "coffee shop",
    scores: [0.5, 10],
    "1": "numeric key",
  }),
];

const ALL = FIXTURE_ROWS.map((fixture) => fixture.id);
const except = (...ids: string[]) => ALL.filter((id) => !ids.includes(id));

export interface FilterCase {
  readonly name: string;
  readonly filters: Record<string, unknown>;
  readonly ids: readonly string[];
}

const ALICE = ["m01", "m02", "m03", "m08", "m10"];

export const FILTER_CASES: readonly FilterCase[] = [
  // columns
  { name: "scope eq", filters: { user_id: "alice" }, ids: ALICE },
  { name: "camelCase scope alias", filters: { userId: "alice" }, ids: ALICE },
  {
    name: "two top-level keys are AND-ed",
    filters: { user_id: "alice", category: "preference" },
    ids: ["m01", "m10"],
  },
  { name: "null eq matches an unset column", filters: { user_id: null }, ids: ["m06"] },
  { name: '"*" on a column', filters: { agent_id: "*" }, ids: ["m05", "m06"] },
  {
    name: "array value is in, with null",
    filters: { category: ["fact", null] },
    ids: ["m02", "m03", "m05", "m06", "m08"],
  },
  {
    name: "nin matches unset columns",
    filters: { category: { nin: ["preference"] } },
    ids: ["m02", "m03", "m05", "m06", "m08"],
  },
  {
    name: "ne matches unset columns",
    filters: { category: { ne: "preference" } },
    ids: ["m02", "m03", "m05", "m06", "m08"],
  },
  {
    name: "contains on a column",
    filters: { category: { contains: "pref" } },
    ids: ["m01", "m04", "m07", "m09", "m10"],
  },
  { name: "contains on a column is case-sensitive", filters: { category: { contains: "PREF" } }, ids: [] },
  {
    name: "icontains on a column",
    filters: { category: { icontains: "PREF" } },
    ids: ["m01", "m04", "m07", "m09", "m10"],
  },
  { name: "in on id", filters: { id: { in: ["m01", "m04", "nope"] } }, ids: ["m01", "m04"] },
  { name: "two scope keys", filters: { run_id: "r1", agent_id: "helper" }, ids: ["m06"] },
  // timestamps
  {
    name: "created_at range (ISO)",
    filters: { created_at: { gte: "2026-03-01T00:00:00.000Z", lt: "2026-06-01T00:00:00.000Z" } },
    ids: ["m03", "m04", "m05"],
  },
  {
    name: "created_at range (epoch ms)",
    filters: { created_at: { gte: Date.UTC(2026, 2, 1), lt: Date.UTC(2026, 5, 1) } },
    ids: ["m03", "m04", "m05"],
  },
  {
    name: "created_at bound by a date prefix",
    filters: { created_at: { lt: "2026-03" } },
    ids: ["m01", "m02"],
  },
  {
    name: "created_at range with offsets and without milliseconds (instants, not spellings)",
    filters: { created_at: { gte: "2026-03-01T02:00:00+02:00", lt: "2026-06-01T00:00:00Z" } },
    ids: ["m03", "m04", "m05"],
  },
  {
    name: "created_at from a date-time without an offset (UTC)",
    filters: { created_at: { lt: "2026-03-01 00:00" } },
    ids: ["m01", "m02"],
  },
  {
    name: "gt a month is after all of it",
    filters: { created_at: { gt: "2026-03" } },
    ids: ["m04", "m05", "m06", "m07", "m08", "m09", "m10"],
  },
  {
    name: "lte a month is up to the end of it",
    filters: { created_at: { lte: "2026-03" } },
    ids: ["m01", "m02", "m03"],
  },
  {
    name: "a day's range, both ends inclusive",
    filters: { updated_at: { gte: "2026-03-02", lte: "2026-03-02" } },
    ids: ["m03"],
  },
  {
    name: "eq an exact instant",
    filters: { created_at: "2026-03-01T00:00:00.000Z" },
    ids: ["m03"],
  },
  {
    name: "eq an instant written with an offset",
    filters: { created_at: { in: ["2026-03-01T01:00:00+01:00", "2026-04-01T00:00:00Z"] } },
    ids: ["m03", "m04"],
  },
  {
    name: "updated_at gt epoch ms",
    filters: { updated_at: { gt: Date.UTC(2026, 8, 1) } },
    ids: ["m09", "m10"],
  },
  {
    name: "created_at as a Date",
    filters: { created_at: { gte: new Date("2026-09-01T00:00:00.000Z") } },
    ids: ["m09", "m10"],
  },
  // metadata eq / ne, typed
  { name: "metadata string eq", filters: { source: "chat" }, ids: ["m01", "m04"] },
  { name: "true matches only true, not 1", filters: { pinned: true }, ids: ["m01"] },
  { name: "false matches only false", filters: { pinned: false }, ids: ["m02"] },
  { name: "1 matches only the number 1, not true", filters: { pinned: 1 }, ids: ["m05"] },
  { name: 'the string "true" is not a boolean', filters: { flag: true }, ids: [] },
  { name: 'eq the string "true"', filters: { flag: "true" }, ids: ["m09"] },
  { name: "number eq", filters: { importance: 0.5 }, ids: ["m02"] },
  { name: "numeric string eq", filters: { importance: "0.5" }, ids: ["m09"] },
  { name: "integer eq", filters: { importance: 1 }, ids: ["m04"] },
  {
    name: "null eq matches absent and JSON null",
    filters: { source: null },
    ids: except("m01", "m02", "m04"),
  },
  { name: "dotted path", filters: { "prefs.color": "blue" }, ids: ["m01", "m07"] },
  { name: "deep dotted path", filters: { "prefs.nested.deep": "x" }, ids: ["m07"] },
  { name: "key with a dash", filters: { "dash-key": "v" }, ids: ["m08"] },
  { name: "numeric key is an object key", filters: { "1": "numeric key" }, ids: ["m10"] },
  { name: "eq never matches an array", filters: { tags: "coffee" }, ids: [] },
  { name: "ne matches absent fields", filters: { source: { ne: "chat" } }, ids: except("m01", "m04") },
  { name: "ne true keeps 1 and absent", filters: { pinned: { ne: true } }, ids: except("m01") },
  { name: "ne null = present and not null", filters: { source: { ne: null } }, ids: ["m01", "m02", "m04"] },
  // ranges
  { name: "gt only on numbers", filters: { importance: { gt: 0.5 } }, ids: ["m01", "m04", "m08"] },
  { name: "gte", filters: { importance: { gte: 0.5 } }, ids: ["m01", "m02", "m04", "m08"] },
  { name: "lt", filters: { importance: { lt: 0.5 } }, ids: ["m03"] },
  { name: "lte", filters: { importance: { lte: 0.5 } }, ids: ["m02", "m03"] },
  {
    name: "gte and lte both apply",
    filters: { importance: { gte: 0.5, lte: 0.9 } },
    ids: ["m01", "m02", "m08"],
  },
  { name: "string range only on strings", filters: { importance: { gt: "a" } }, ids: ["m05"] },
  { name: "gte ignores numeric strings", filters: { count: { gte: 3 } }, ids: ["m04"] },
  { name: "range on a dotted path", filters: { "prefs.size": { lt: 100 } }, ids: ["m01"] },
  // in / nin
  { name: "in mixes types", filters: { importance: [0.5, 1, "high"] }, ids: ["m02", "m04", "m05"] },
  { name: "empty in matches nothing", filters: { importance: { in: [] } }, ids: [] },
  // A digit segment names an object key, never an array's element, on every backend.
  { name: "a digit segment is a key, not an array index", filters: { "tags.0": "coffee" }, ids: [] },
  { name: "empty nin matches everything", filters: { importance: { nin: [] } }, ids: ALL },
  {
    name: "nin matches absent fields",
    filters: { importance: { nin: [0.5, 1] } },
    ids: except("m02", "m04"),
  },
  {
    name: "in with true and null",
    filters: { pinned: { in: [true, null] } },
    ids: ["m01", "m03", "m04", "m06", "m07", "m08", "m09", "m10"],
  },
  // contains / icontains
  {
    name: "contains: array element or substring",
    filters: { tags: { contains: "coffee" } },
    ids: ["m01", "m05", "m10"],
  },
  { name: "contains is case-sensitive", filters: { tags: { contains: "Coffee" } }, ids: [] },
  { name: "contains a number element, not true", filters: { tags: { contains: 1 } }, ids: ["m07"] },
  { name: "contains true, not 1", filters: { tags: { contains: true } }, ids: ["m07", "m09"] },
  { name: "contains a real element", filters: { scores: { contains: 0.5 } }, ids: ["m10"] },
  { name: "substring of a string field", filters: { note: { contains: "Coffee" } }, ids: ["m03"] },
  { name: "icontains on a string field", filters: { note: { icontains: "COFFEE" } }, ids: ["m03"] },
  {
    name: "icontains: element or substring",
    filters: { tags: { icontains: "coffee" } },
    ids: ["m01", "m05", "m10"],
  },
  { name: "icontains matches a whole element", filters: { tags: { icontains: "morning" } }, ids: ["m01"] },
  { name: "icontains element with a space", filters: { tags: { icontains: "coffee BEANS" } }, ids: ["m05"] },
  { name: "icontains is no substring of an element", filters: { tags: { icontains: "COFF" } }, ids: ["m10"] },
  // exists
  {
    name: '"*" on metadata, empty array included',
    filters: { tags: "*" },
    ids: ["m01", "m02", "m04", "m05", "m07", "m09", "m10"],
  },
  { name: '"*" skips JSON null', filters: { source: "*" }, ids: ["m01", "m02", "m04"] },
  { name: '"*" on a nested object', filters: { "prefs.nested": "*" }, ids: ["m07"] },
  // logic
  { name: "OR", filters: { OR: [{ source: "chat" }, { pinned: true }] }, ids: ["m01", "m04"] },
  {
    name: "AND on one key keeps both",
    filters: { AND: [{ user_id: "alice" }, { user_id: "bob" }] },
    ids: [],
  },
  {
    name: "AND of two ranges",
    filters: { AND: [{ importance: { gte: 0.5 } }, { importance: { lte: 0.9 } }] },
    ids: ["m01", "m02", "m08"],
  },
  { name: "NOT", filters: { NOT: [{ user_id: "alice" }] }, ids: ["m04", "m05", "m06", "m07", "m09"] },
  {
    name: "NOT = none of them",
    filters: { NOT: [{ user_id: "alice" }, { user_id: "bob" }] },
    ids: ["m06", "m07", "m09"],
  },
  {
    name: "NOT of a range includes absent",
    filters: { NOT: [{ importance: { gt: 0.5 } }] },
    ids: except("m01", "m04", "m08"),
  },
  {
    name: "scope with nested OR / NOT",
    filters: { user_id: "alice", OR: [{ category: "fact" }, { NOT: [{ importance: "*" }] }] },
    ids: ["m02", "m08", "m10"],
  },
  {
    name: "$or / $and / $not aliases",
    filters: {
      $or: [{ user_id: "carol" }, { $and: [{ user_id: "bob" }, { agent_id: "helper" }] }],
      $not: [{ app_id: "notes" }],
    },
    ids: ["m05"],
  },
  {
    name: "double negation",
    filters: { AND: [{ OR: [{ NOT: [{ NOT: [{ user_id: "alice" }] }] }] }] },
    ids: ALICE,
  },
  { name: "empty filter matches everything", filters: {}, ids: ALL },
  // injection attempts in values are only data
  { name: "injection text is a plain value", filters: { quote: INJECTION }, ids: ["m08"] },
  { name: "quote in a scope value", filters: { user_id: "alice' or '1'='1" }, ids: [] },
  {
    name: "injection inside an in list",
    filters: { "prefs.color": { in: ["') or 1=1 --", "blue"] } },
    ids: ["m01", "m07"],
  },
  { name: "injection in icontains", filters: { note: { icontains: "%' or 1=1 --" } }, ids: [] },
];
