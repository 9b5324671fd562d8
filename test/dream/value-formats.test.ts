/**
 * Values written differently read as the same value, and different values as different: clock
 * times with am/pm, weekdays written short, amounts with a currency sign or separators, number
 * words glued to their unit, short forms, identifiers and street abbreviations. No embedder needed.
 */

import { describe, expect, it } from "vitest";
import { comparePair, type RefusalReason } from "../../src/dream/analyse/similarity/compare.js";
import { extractDetails } from "../../src/dream/analyse/similarity/details.js";
import { memoryFeatures } from "../../src/dream/analyse/similarity/features.js";
import { findTimeExpressions } from "../../src/dream/analyse/similarity/time-expressions.js";
import { valueConflict } from "../../src/dream/analyse/similarity/value-conflict.js";
import { toSnapshotMemory } from "./helpers/snapshot.js";

let counter = 0;
const features = (text: string) =>
  memoryFeatures(toSnapshotMemory({ id: `v${++counter}`, text, createdAt: "2026-01-01T00:00:00.000Z" }, {}));
const reasons = (a: string, b: string): RefusalReason[] =>
  comparePair(features(a), features(b)).refusals.map((refusal) => refusal.reason);
const keys = (text: string) => findTimeExpressions(text).map((time) => time.key);

describe("values written differently", () => {
  it.each([
    ["8pm", "20:00"],
    ["7 a.m.", "7:00"],
    ["12pm", "12:00"],
    ["12am", "0:00"],
    ["noon", "12:00"],
    ["07:00", "7:00"],
  ])("reads the clock time %s as %s", (written, key) => {
    expect(keys(`The class starts at ${written} sharp.`)).toEqual([key]);
  });

  it("reads weekdays written short, but not 'sat' or 'sun' as words", () => {
    expect(keys("Open Tue–Sat.")).toEqual(["tue", "sat"]);
    expect(keys("Mon, Wed, Fri")).toEqual(["mon", "wed", "fri"]);
    expect(keys("The cat sat in the sun.")).toEqual([]);
  });

  it.each([
    ["The audit costs $2,500.", ["2500 usd"]],
    ["The audit costs 2500 dollars.", ["2500 usd"]],
    ["Rent is €1,200 a month.", ["1200 eur"]],
    ["User does a fifteen-kilometre run.", ["15 km"]],
    ["Resting heart rate 52 bpm.", ["52 bpm"]],
  ])("reads the amount in %j as %j", (text, numbers) => {
    expect(extractDetails(text).numbers).toEqual(numbers);
  });

  it.each([
    ["The quarterly audit costs $2,500.", "The quarterly audit costs 2500 dollars."],
    ["The payments service runs on k8s.", "The payments service runs on Kubernetes."],
    ["Dr. Okoye's clinic is on Baker St.", "Dr. Okoye's clinic is on Baker Street."],
    ["The feature store is the dataset `features_prod`.", "The feature store is the dataset features_prod."],
    [
      "User prefers PostgreSQL to MySQL for side projects.",
      "User: prefers Postgres over MySQL for side projects.",
    ],
    [
      "Professor Haddad's office hours are Tuesdays 2pm–4pm.",
      "Haddad holds office hours on Tuesday from 14:00 to 16:00.",
    ],
  ])("finds nothing telling %j and %j apart", (a, b) => {
    expect(reasons(a, b)).toEqual([]);
  });

  it.each([
    ["Bedtime is 8pm on school nights.", "Bedtime is 19:30 on school nights.", "time"],
    ["Backups go to s3://acme-backups.", "Backups go to gs://acme-archive.", "value"],
    ["Push notifications are on by default.", "Push notifications are off by default.", "state"],
  ])("tells %j and %j apart (%s)", (a, b, reason) => {
    expect(reasons(a, b)).toContain(reason);
  });
});

describe("the same slot with another value", () => {
  it("is sure when one statement holds the other, and says what differs", () => {
    const judged = valueConflict(
      features("The ledger API listens on port 8081 in production."),
      features("Production ledger API port: 9090"),
    );
    expect(judged).toMatchObject({ values: "8081 ≠ 9090", sure: true });
    expect(judged?.frame).toEqual(expect.arrayContaining(["ledger", "port"]));
  });

  it("is unsure when each has a word of its own, and names those words as written", () => {
    const judged = valueConflict(
      features("The office coffee machine is a Sage Barista."),
      features("The kitchen coffee machine is a DeLonghi Magnifica."),
    );
    expect(judged).toMatchObject({ sure: false, onlyA: ["office"], onlyB: ["kitchen"] });
  });

  it.each([
    ["Omar speaks Arabic.", "Omar speaks Portuguese."],
    ["Postmortems are due within 5 days.", "Postmortems for SEV1 incidents are due within 2 days."],
    [
      "The search cluster runs Elasticsearch 8.11 in production.",
      "The production Kubernetes cluster is in eu-central-1.",
    ],
    ["Alice lives in Lyon.", "Bob lives in Paris."],
    ["The team uses Jenkins for CI.", "The team switched from Jenkins to GitHub Actions for CI."],
  ])("is never sure of %j / %j", (a, b) => {
    expect(valueConflict(features(a), features(b))?.sure ?? false).toBe(false);
  });
});
