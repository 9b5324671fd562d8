/**
 * The LoCoMo slice as the evidence-recall harness needs it: each turn as a memory text with its
 * dia_id, and the questions of categories 1–4 that name evidence turns.
 *
 * @module
 */

import { existsSync, readFileSync } from "node:fs";

export const CATEGORY_NAMES: Readonly<Record<number, string>> = {
  1: "multi-hop",
  2: "temporal",
  3: "open-domain",
  4: "single-hop",
};

export interface LocomoTurn {
  readonly conversation: string;
  readonly diaId: string;
  readonly sessionDate: string;
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
  for (const sample of samples) {
    const sessions = Object.keys(sample.conversation)
      .map((key) => /^session_(\d+)$/.exec(key)?.[1])
      .filter((number): number is string => number !== undefined)
      .sort((a, b) => Number(a) - Number(b));
    for (const number of sessions) {
      const sessionDate = String(sample.conversation[`session_${number}_date_time`] ?? "");
      for (const turn of sample.conversation[`session_${number}`] as RawTurn[]) {
        const caption = turn.blip_caption ? ` [shares ${turn.blip_caption}]` : "";
        turns.push({
          conversation: sample.sample_id,
          diaId: turn.dia_id,
          sessionDate,
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
  return { conversations: samples.map((sample) => sample.sample_id), turns, questions };
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
