/**
 * For the fusion experiments: every memory of a question's scope with its three signals, read
 * from `explain: true`. A topK large enough that each generator's pool (4 · topK) covers the whole
 * conversation makes the engine return all of them, so any pool size can be simulated offline.
 *
 * @module
 */

import type { Memory } from "../src/index.js";
import type { LocomoQuestion } from "./locomo-data.js";

export interface CandidateSignals {
  readonly id: string;
  readonly diaId: string;
  /**
   * Words in the memory and its insertion order (session, then turn): they order keyword hits whose
   * rounded BM25 ties. Query terms found in most of a scope (a speaker's name) get FTS5's floor IDF,
   * so their raw BM25 is ~1e-6 and differs only by document length, shortest first, then by rowid.
   */
  readonly words: number;
  readonly order: number;
  readonly semantic: number;
  /** Sigmoid-normalised BM25; 0 when the keyword generator did not match the memory. */
  readonly bm25: number;
  /** 0 when the memory shares no entity with the question. */
  readonly entity: number;
}

export interface QuestionCandidates {
  readonly conversation: string;
  readonly category: number;
  readonly evidence: readonly string[];
  readonly candidates: readonly CandidateSignals[];
}

/** Larger than any LoCoMo conversation (≤ 700 turns), and 4 · this stays within vec0's k limit of 4096. */
const ALL = 1000;

export async function collectCandidates(
  memory: Memory,
  questions: readonly LocomoQuestion[],
  progress: (message: string) => void,
): Promise<QuestionCandidates[]> {
  progress(`collecting all candidates with explain for ${questions.length} questions`);
  const collected: QuestionCandidates[] = [];
  for (const q of questions) {
    const { results } = await memory.search(q.question, {
      filters: { user_id: q.conversation },
      topK: ALL,
      threshold: 0,
      explain: true,
    });
    const candidates = results.map((item) => ({
      id: item.id,
      diaId: String(item.metadata.dia_id),
      words: item.memory.split(/[^\p{L}\p{N}]+/u).filter((word) => word.length > 0).length,
      order: insertionOrder(String(item.metadata.dia_id)),
      semantic: item.score_details?.semanticScore ?? 0,
      bm25: item.score_details?.bm25Score ?? 0,
      entity: item.score_details?.entityBoost ?? 0,
    }));
    collected.push({ conversation: q.conversation, category: q.category, evidence: q.evidence, candidates });
  }
  return collected;
}

/** "D12:7" → 12_00007; turns were added session by session, turn by turn. */
function insertionOrder(diaId: string): number {
  const [session, turn] = diaId.slice(1).split(":").map(Number);
  return (session ?? 0) * 100_000 + (turn ?? 0);
}
