/**
 * The LoCoMo slice as the evidence-recall harness needs it: each turn as a memory text with its
 * dia_id, and the questions of categories 1–4 that name evidence turns.
 *
 * @module
 */

import { existsSync, readFileSync } from "node:fs";
import { MONTHS } from "../src/text/time-expressions.js";

export const CATEGORY_NAMES: Readonly<Record<number, string>> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
};

export interface LocomoTurn {
  readonly conversation: string;
  readonly diaId: string;
  /** The session's number within its conversation. */
  readonly session: number;
  readonly sessionDate: string;
  /** The session's date as an ISO-8601 instant (the dataset gives "1:56 pm on 8 May, 2023"). */
  readonly sessionTime: string;
  readonly speaker: string;
  /** `"<speaker>: <text>"`, plus ` [shares <caption>]` for image turns. */
  readonly text: string;
}

export interface LocomoQuestion {
  readonly conversation: string;
  readonly question: string;
  readonly category: number;
  readonly evidence: readonly string[];
}

export interface LocomoData {
  readonly conversations: readonly string[];
  /** The two speakers of each conversation. */
  readonly speakers: ReadonlyMap<string, readonly string[]>;
  readonly turns: readonly LocomoTurn[];
  readonly questions: readonly LocomoQuestion[];
}

interface RawTurn {
  speaker: string;
  dia_id: string;
  text: string;
  blip_caption?: string;
}

interface RawSample {
  sample_id: string;
  conversation: Record<string, unknown>;
  qa: { question: string; evidence?: string[]; category: number }[];
}

/** The dataset at `path`, or null when the file is absent. */
export function loadLocomo(path: string, options: { conversations?: number } = {}): LocomoData | null {
  if (!existsSync(path)) return null;
  const samples = (JSON.parse(readFileSync(path, "utf8")) as RawSample[]).slice(0, options.conversations);
  const turns: LocomoTurn[] = [];
  const questions: LocomoQuestion[] = [];
  const speakers = new Map<string, string[]>();
  for (const sample of samples) {
    speakers.set(
      sample.sample_id,
      [sample.conversation.speaker_a, sample.conversation.speaker_b].map((name) => String(name)),
    );
    const sessions = Object.keys(sample.conversation)
      .map((key) => /^session_(\d+)$/.exec(key)?.[1])
      .filter((number): number is string => number !== undefined)
      .sort((a, b) => Number(a) - Number(b));
    for (const number of sessions) {
      const sessionDate = String(sample.conversation[`session_${number}_date_time`] ?? "");
      const sessionTime = parseSessionDate(sessionDate);
      for (const turn of sample.conversation[`session_${number}`] as RawTurn[]) {
        const caption = turn.blip_caption ? ` [shares ${turn.blip_caption}]` : "";
        turns.push({
          conversation: sample.sample_id,
          diaId: turn.dia_id,
          session: Number(number),
          sessionDate,
          sessionTime,
          speaker: turn.speaker,
          // Lucid trims memory text; trimmed here too so the precomputed vectors are keyed by what it embeds.
          text: `${turn.speaker}: ${turn.text}${caption}`.trim(),
        });
      }
    }
    for (const qa of sample.qa) {
      const evidence = normaliseEvidence(qa.evidence ?? []);
      if (qa.category < 1 || qa.category > 4 || evidence.length === 0) continue;
      questions.push({
        conversation: sample.sample_id,
        question: qa.question.trim(),
        category: qa.category,
        evidence,
      });
    }
  }
  return { conversations: samples.map((sample) => sample.sample_id), speakers, turns, questions };
}

/** "1:56 pm on 8 May, 2023" → "2023-05-08T13:56:00.000Z" (the dataset's times have no zone: read as UTC). */
export function parseSessionDate(text: string): string {
  const match = /^(\d{1,2}):(\d{2})\s*(am|pm)\s+on\s+(\d{1,2})\s+([a-z]+),?\s+(\d{4})$/iu.exec(text.trim());
  const month = (MONTHS as readonly string[]).indexOf(match?.[5]?.toLowerCase() ?? "");
  if (match === null || month < 0) throw new Error(`Unexpected LoCoMo session date ${JSON.stringify(text)}.`);
  const hour = (Number(match[1]) % 12) + (match[3]?.toLowerCase() === "pm" ? 12 : 0);
  return new Date(Date.UTC(Number(match[6]), month, Number(match[4]), hour, Number(match[2]))).toISOString();
}

/**
 * A few evidence entries are malformed in the source: two ids in one string ("D8:6; D9:17") or a
 * stray colon ("D:11:26"). Those are repaired; ids that still name no turn stay and count as misses.
 */
function normaliseEvidence(evidence: readonly string[]): string[] {
  const ids = evidence
    .flatMap((entry) => entry.split(";"))
    .map((id) => id.trim().replace(/^D:(\d)/, "D$1"))
    .filter((id) => id.length > 0);
  return [...new Set(ids)];
}
