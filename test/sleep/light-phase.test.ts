/**
 * The light phase against the rules of `openclaw-dreaming.md` §5 and Lucid's documented departures
 * (no origin filter; "fresh" keyed on the claim staged on an earlier day; promoted-earlier entries
 * left out; diary coverage by snippet or ≥ 0.35 of its content words). Every expected value below is
 * worked out from those rules by hand, not from the module's code.
 */
import { describe, expect, it } from "vitest";
import { lightBody, selectLightCandidates, withLightSignal } from "../../src/sleep/light-phase.js";
import { MAX_PHASE_HITS, type RecallEntry } from "../../src/sleep/recall-entry.js";
import { claimHash, recallKey } from "../../src/sleep/recall-keys.js";
import { DEFAULT_SLEEP_SETTINGS, type LightPhaseSettings } from "../../src/sleep/sleep-config.js";
import { containment, snippetSimilarity } from "../../src/sleep/text-similarity.js";
import { recallEntry } from "../helpers/recall-entries.js";

const TODAY = "2026-11-05";
const NOW = "2026-11-05T03:00:00Z";
const dayOf = (iso: string) => iso.slice(0, 10);
const SETTINGS: LightPhaseSettings = DEFAULT_SLEEP_SETTINGS.phases.light;

/** A recall entry recalled once yesterday with score 0.8. */
const entry = (fields: Partial<RecallEntry> = {}) => recallEntry(fields);

/** An entry only daily ingestion has seen: from note `day`, sighted by this sweep's ingestion. */
function dailyOnly(day: string, snippet: string, recallDays = [day]): RecallEntry {
  return entry({
    path: `memory/${day}.md`,
    snippet,
    recallCount: 0,
    dailyCount: 1,
    totalScore: 0.62,
    maxScore: 0.62,
    firstRecalledAt: NOW,
    lastRecalledAt: NOW,
    userQueryHashes: [],
    recallDays,
  });
}

function select(
  entries: readonly RecallEntry[],
  options: {
    settings?: Partial<LightPhaseSettings>;
    notes?: readonly string[];
    diary?: readonly string[];
  } = {},
) {
  return selectLightCandidates({
    entries,
    today: TODAY,
    dayOf,
    settings: { ...SETTINGS, ...options.settings },
    notes: new Set(options.notes ?? entries.map((each) => each.path)),
    diary: options.diary ?? [],
  });
}

const keys = (staged: readonly { key: string }[]) => staged.map((each) => each.key);

describe("light phase: which entries are staged", () => {
  it("keeps what was recalled within the lookback, by recall day or by last recall", () => {
    // lookbackDays 2 from 2026-11-05: 2026-11-03 … 2026-11-05 are within, 2026-11-02 is not.
    const twoDaysBack = entry({
      path: "memory/2026-11-03.md",
      snippet: "Book the ryokan in Kyoto by March",
      recallDays: ["2026-11-03"],
      lastRecalledAt: "2026-11-03T10:00:00Z",
    });
    const threeDaysBack = entry({
      path: "memory/2026-11-02.md",
      snippet: "Renew the passport before the Lisbon trip",
      recallDays: ["2026-11-02"],
      lastRecalledAt: "2026-11-02T23:00:00Z",
    });
    // An old recall day, but recalled again yesterday: one recall day in the window is enough.
    const oldAndRecent = entry({
      path: "memory/2026-11-01.md",
      snippet: "Knee physio on Thursdays at 8:30",
      recallDays: ["2026-10-20", "2026-11-04"],
      lastRecalledAt: "2026-11-04T08:00:00Z",
    });
    // No recall days (an imported record): judged by lastRecalledAt alone.
    const noDays = entry({
      path: "memory/2026-10-30.md",
      snippet: "Ana prefers oat milk in her coffee",
      recallDays: [],
      lastRecalledAt: "2026-11-04T07:00:00Z",
    });
    // A recall (not daily) entry of an old note counts by when it was recalled, not by its note's day.
    const oldNote = entry({
      path: "memory/2026-09-01.md",
      snippet: "Staging database lives in Frankfurt",
      recallDays: ["2026-11-04"],
      lastRecalledAt: "2026-11-04T06:00:00Z",
    });
    const staged = select([twoDaysBack, threeDaysBack, oldAndRecent, noDays, oldNote]);
    expect(new Set(keys(staged))).toEqual(
      new Set([twoDaysBack.key, oldAndRecent.key, noDays.key, oldNote.key]),
    );
  });

  it("judges an entry only daily ingestion has seen by its note's date", () => {
    // Each was sighted by today's ingestion (lastRecalledAt = now), so only the note's day can tell.
    const yesterday = dailyOnly("2026-11-04", "Moved the deploy to Thursday");
    const threeDaysOld = dailyOnly("2026-11-02", "Renew the passport before the Lisbon trip");
    const oldNote = dailyOnly("2026-10-25", "Book the ryokan in Kyoto by March");
    // Even with today's day among its recall days (as OpenClaw's ingestion buckets them): the note is old.
    const oldNoteTodayBucket = dailyOnly("2026-10-26", "Knee physio on Thursdays at 8:30", [TODAY]);
    expect(keys(select([yesterday, threeDaysOld, oldNote, oldNoteTodayBucket]))).toEqual([yesterday.key]);
  });

  it("stages again only what the light phase did not stage on an earlier day with the same claim", () => {
    const snippetA = "Moved the deploy to Thursday";
    const stagedYesterday = entry({
      path: "memory/2026-11-04.md",
      snippet: snippetA,
      lightHits: 1,
      lastLightAt: "2026-11-04T03:00:00Z",
      lightClaimHash: claimHash(snippetA),
    });
    // Staged today by a first sweep: a second sweep the same day stages it again.
    const snippetB = "Book the ryokan in Kyoto by March";
    const stagedToday = entry({
      path: "memory/2026-11-03.md",
      snippet: snippetB,
      lightHits: 1,
      lastLightAt: "2026-11-05T01:00:00Z",
      lightClaimHash: claimHash(snippetB),
    });
    // Staged yesterday, but the range now says something else: a new claim, staged.
    const changed = entry({
      path: "memory/2026-11-01.md",
      snippet: "Renew the passport before the Lisbon trip in May",
      lightHits: 1,
      lastLightAt: "2026-11-04T03:00:00Z",
      lightClaimHash: claimHash("Renew the passport before the Lisbon trip"),
    });
    const never = entry({ path: "memory/2026-10-31.md", snippet: "Knee physio on Thursdays at 8:30" });
    expect(new Set(keys(select([stagedYesterday, stagedToday, changed, never])))).toEqual(
      new Set([stagedToday.key, changed.key, never.key]),
    );
  });

  it("leaves out what was promoted on an earlier day, but not what was promoted today", () => {
    const promotedYesterday = entry({
      path: "memory/2026-11-04.md",
      promotedAt: "2026-11-04T03:00:00Z",
    });
    const promotedToday = entry({
      path: "memory/2026-11-03.md",
      snippet: "Book the ryokan in Kyoto by March",
      promotedAt: "2026-11-05T02:00:00Z",
    });
    expect(keys(select([promotedYesterday, promotedToday]))).toEqual([promotedToday.key]);
  });

  it("leaves out an entry whose note no longer exists", () => {
    const kept = entry({ path: "memory/2026-11-04.md" });
    const gone = entry({ path: "memory/2026-11-03.md", snippet: "Book the ryokan in Kyoto by March" });
    expect(keys(select([kept, gone], { notes: ["memory/2026-11-04.md", "MEMORY.md"] }))).toEqual([kept.key]);
  });

  it("orders by last recall, newest first, then by recall count", () => {
    const older = entry({
      path: "memory/2026-11-01.md",
      snippet: "Knee physio on Thursdays at 8:30",
      recallCount: 9,
      totalScore: 7.2,
      lastRecalledAt: "2026-11-04T08:00:00Z",
    });
    const newestFew = entry({
      path: "memory/2026-11-02.md",
      snippet: "Book the ryokan in Kyoto by March",
      recallCount: 1,
      lastRecalledAt: "2026-11-04T10:00:00Z",
    });
    const newestMany = entry({
      path: "memory/2026-11-03.md",
      snippet: "Renew the passport before the Lisbon trip",
      recallCount: 4,
      totalScore: 3.2,
      lastRecalledAt: "2026-11-04T10:00:00Z",
    });
    // 10:00 (4 recalls), 10:00 (1 recall), then 08:00 whatever its 9 recalls.
    expect(keys(select([older, newestFew, newestMany]))).toEqual([newestMany.key, newestFew.key, older.key]);
  });
});

describe("light phase: dedupe, coverage and limit", () => {
  it("stages two alike entries of one note once, with the larger counts and scores", () => {
    // "Moved the deploy to Thursday" and "moved deploys to thursday" have the same content words
    // (Jaccard 1 ≥ 0.9). The newer is kept; merged: recallCount max(1, 3) = 3, totalScore
    // max(0.9, 2.4) = 2.4, so the confidence is 2.4 / 3 = 0.80.
    const first = entry({
      startLine: 3,
      totalScore: 0.9,
      maxScore: 0.9,
      lastRecalledAt: "2026-11-04T10:00:00Z",
    });
    const alike = entry({
      startLine: 7,
      snippet: "moved deploys to thursday",
      recallCount: 3,
      totalScore: 2.4,
      maxScore: 0.9,
      lastRecalledAt: "2026-11-04T09:00:00Z",
    });
    expect(snippetSimilarity(first.snippet, alike.snippet)).toBe(1);
    // The same words in another note are another entry; another claim of the same note too.
    const otherNote = entry({ path: "memory/2026-11-03.md", lastRecalledAt: "2026-11-04T08:00:00Z" });
    const otherClaim = entry({
      startLine: 9,
      snippet: "Knee physio on Thursdays at 8:30",
      lastRecalledAt: "2026-11-04T07:00:00Z",
    });
    const staged = select([alike, first, otherNote, otherClaim]);
    expect(keys(staged)).toEqual([first.key, otherNote.key, otherClaim.key]);
    expect(staged[0]?.recalls).toBe(3);
    expect(staged[0]?.confidence).toBeCloseTo(0.8, 10);
  });

  it("dedupes at dedupeSimilarity and above, not below", () => {
    // Content words {kyoto, ryokan, march} vs {kyoto, ryokan, april}: 2 shared of 4 = 0.5.
    // {kyoto, ryokan, march, deposit} vs {kyoto, ryokan, april}: 2 shared of 5 = 0.4.
    const base = entry({
      startLine: 1,
      snippet: "Kyoto ryokan March",
      lastRecalledAt: "2026-11-04T10:00:00Z",
    });
    const half = entry({
      startLine: 2,
      snippet: "Kyoto ryokan April",
      lastRecalledAt: "2026-11-04T09:00:00Z",
    });
    expect(snippetSimilarity(base.snippet, half.snippet)).toBeCloseTo(0.5);
    const withDeposit = entry({ startLine: 1, snippet: "Kyoto ryokan March deposit" });
    expect(snippetSimilarity(withDeposit.snippet, half.snippet)).toBeCloseTo(0.4);
    expect(keys(select([base, half], { settings: { dedupeSimilarity: 0.5 } }))).toEqual([base.key]);
    expect(keys(select([base, half], { settings: { dedupeSimilarity: 0.51 } }))).toEqual([
      base.key,
      half.key,
    ]);
    expect(
      keys(
        select([{ ...withDeposit, lastRecalledAt: base.lastRecalledAt }, half], {
          settings: { dedupeSimilarity: 0.5 },
        }),
      ),
    ).toEqual([withDeposit.key, half.key]);
  });

  it("stages what the last 4 diary entries already tell after the rest", () => {
    const deploy = entry({ path: "memory/2026-11-04.md", lastRecalledAt: "2026-11-04T12:00:00Z" });
    const passport = entry({
      path: "memory/2026-11-03.md",
      snippet: "Renew the passport before the Lisbon trip",
      lastRecalledAt: "2026-11-04T11:00:00Z",
    });
    const ryokan = entry({
      path: "memory/2026-11-02.md",
      snippet: "Book the ryokan in Kyoto by March",
      lastRecalledAt: "2026-11-04T10:00:00Z",
    });
    const physio = entry({
      path: "memory/2026-11-01.md",
      snippet: "Knee physio on Thursdays at 8:30",
      lastRecalledAt: "2026-11-04T09:00:00Z",
    });
    const diary = [
      // Oldest: outside the last 4, so it covers nothing, though it holds the ryokan snippet verbatim.
      "I kept thinking: book the ryokan in Kyoto by March.",
      "Rain on the window and a quiet server hum.",
      // {renew, passport, lisbon, trip}: passport and lisbon, 2 of 4 = 0.5 ≥ 0.35.
      "Dreamt of passports and Lisbon streets.",
      // The deploy snippet as a case-insensitive substring.
      "Today we MOVED THE DEPLOY TO THURSDAY after the outage.",
      // {kne, physio, thursda, 8, 30}: physio only, 1 of 5 = 0.2 < 0.35.
      "A physio visit.",
    ];
    expect(containment(passport.snippet, diary[2] ?? "")).toBeCloseTo(0.5);
    expect(containment(physio.snippet, diary[4] ?? "")).toBeCloseTo(0.2);
    const staged = select([deploy, passport, ryokan, physio], { diary });
    // Uncovered in their order (ryokan 10:00, physio 09:00), then covered (deploy 12:00, passport 11:00).
    expect(staged.map((each) => [each.key, each.covered])).toEqual([
      [ryokan.key, false],
      [physio.key, false],
      [deploy.key, true],
      [passport.key, true],
    ]);
  });

  it("takes the first `limit` after dedupe and coverage", () => {
    const deploy = entry({ startLine: 1, lastRecalledAt: "2026-11-04T12:00:00Z" });
    const deployAgain = entry({
      startLine: 2,
      snippet: "moved deploys to thursday",
      lastRecalledAt: "2026-11-04T11:00:00Z",
    });
    const ryokan = entry({
      startLine: 3,
      snippet: "Book the ryokan in Kyoto by March",
      lastRecalledAt: "2026-11-04T10:00:00Z",
    });
    const physio = entry({
      startLine: 4,
      snippet: "Knee physio on Thursdays at 8:30",
      lastRecalledAt: "2026-11-04T09:00:00Z",
    });
    // Dedupe first (deployAgain merges into deploy), then the limit: deploy, ryokan.
    expect(keys(select([deploy, deployAgain, ryokan, physio], { settings: { limit: 2 } }))).toEqual([
      deploy.key,
      ryokan.key,
    ]);
    // Covered goes last before the limit: the diary tells the deploy, so ryokan, physio.
    expect(
      keys(
        select([deploy, deployAgain, ryokan, physio], {
          settings: { limit: 2 },
          diary: ["moved the deploy to thursday"],
        }),
      ),
    ).toEqual([ryokan.key, physio.key]);
  });
});

describe("light phase: the block body", () => {
  it("lists each candidate with its average score to 2 dp, evidence, recalls and status", () => {
    // Two recalls (0.9, 0.8) and one daily sighting (0.62): (0.9 + 0.8 + 0.62) / 3 = 2.32 / 3 = 0.7733.
    const mixed = entry({
      path: "memory/2026-11-04.md",
      startLine: 3,
      endLine: 5,
      snippet: "Moved the deploy to Thursday",
      recallCount: 2,
      dailyCount: 1,
      totalScore: 2.32,
      maxScore: 0.9,
      lastRecalledAt: "2026-11-04T12:00:00Z",
    });
    // Only seen by daily ingestion: 0.62 / 1 = 0.62, and 0 recalls.
    const daily = dailyOnly("2026-11-04", "Renew the passport before the Lisbon trip");
    const staged = select([mixed, { ...daily, startLine: 8, endLine: 8, key: recallKey(daily.path, 8, 8) }]);
    expect(staged[1]?.confidence).toBeCloseTo(2.32 / 3, 2);
    expect(lightBody(staged)).toBe(
      [
        // The daily-only entry was sighted at 03:00 today, after the mixed one's 12:00 yesterday.
        "- Candidate: Renew the passport before the Lisbon trip",
        "  - confidence: 0.62",
        "  - evidence: memory/2026-11-04.md:8-8",
        "  - recalls: 0",
        "  - status: staged",
        "- Candidate: Moved the deploy to Thursday",
        "  - confidence: 0.77",
        "  - evidence: memory/2026-11-04.md:3-5",
        "  - recalls: 2",
        "  - status: staged",
      ].join("\n"),
    );
  });

  it("says there is nothing new when nothing is staged", () => {
    expect(lightBody([])).toBe("- No notable updates.");
    expect(lightBody(select([]))).toBe("- No notable updates.");
  });
});

describe("light phase: the phase signal", () => {
  it("counts once a day, at the sweep's time, and keeps the claim it staged", () => {
    const fresh = entry();
    const first = withLightSignal(fresh, NOW, dayOf);
    expect(first).toMatchObject({ lightHits: 1, lastLightAt: NOW, lightClaimHash: fresh.claimHash });
    // A second sweep the same day changes nothing.
    expect(first && withLightSignal(first, "2026-11-05T15:00:00Z", dayOf)).toBeUndefined();
    // The next day: one more hit.
    expect(first && withLightSignal(first, "2026-11-06T03:00:00Z", dayOf)).toMatchObject({
      lightHits: 2,
      lastLightAt: "2026-11-06T03:00:00Z",
    });
  });

  it("stops counting at 9999", () => {
    expect(MAX_PHASE_HITS).toBe(9999);
    const almost = entry({ lightHits: 9998, lastLightAt: "2026-11-04T03:00:00Z" });
    expect(withLightSignal(almost, NOW, dayOf)?.lightHits).toBe(9999);
    const full = entry({ lightHits: 9999, lastLightAt: "2026-11-04T03:00:00Z" });
    expect(withLightSignal(full, NOW, dayOf)).toMatchObject({ lightHits: 9999, lastLightAt: NOW });
  });

  it("makes a staged entry stale the next day until its claim changes", () => {
    const staged = withLightSignal(entry(), NOW, dayOf);
    if (!staged) throw new Error("expected a light signal");
    const nextDay = (entries: readonly RecallEntry[]) =>
      selectLightCandidates({
        entries,
        today: "2026-11-06",
        dayOf,
        settings: SETTINGS,
        notes: new Set(entries.map((each) => each.path)),
        diary: [],
      });
    // Recalled 2026-11-04, within 2 days of 2026-11-06, but staged yesterday unchanged.
    expect(nextDay([staged])).toEqual([]);
    const rewritten = {
      ...staged,
      snippet: "Moved the deploy to Friday",
      claimHash: claimHash("Moved the deploy to Friday"),
    };
    expect(keys(nextDay([rewritten]))).toEqual([rewritten.key]);
  });
});
