/**
 * Evidence recall@k: the fraction of a question's evidence turns among its top k results,
 * averaged over questions, overall and per category.
 *
 * @module
 */

export const RECALL_KS = [1, 5, 10, 20] as const;

export interface RecallRow {
  readonly label: string;
  readonly questions: number;
  /** recall at each of RECALL_KS, in order. */
  readonly recall: readonly number[];
}

export interface Ranking {
  readonly category: number;
  readonly evidence: readonly string[];
  /** dia_ids of the results, best first. */
  readonly ranked: readonly string[];
}

export function recallAt(ranking: Ranking, k: number): number {
  const top = new Set(ranking.ranked.slice(0, k));
  const found = ranking.evidence.filter((id) => top.has(id)).length;
  return found / ranking.evidence.length;
}

/** One row for all questions, then one per category (in `categoryNames` order). */
export function recallTable(
  rankings: readonly Ranking[],
  categoryNames: Readonly<Record<number, string>>,
): RecallRow[] {
  const row = (label: string, subset: readonly Ranking[]): RecallRow => ({
    label,
    questions: subset.length,
    recall: RECALL_KS.map((k) =>
      subset.length === 0 ? Number.NaN : subset.reduce((sum, r) => sum + recallAt(r, k), 0) / subset.length,
    ),
  });
  return [
    row("all", rankings),
    ...Object.entries(categoryNames).map(([category, name]) =>
      row(
        `${category} ${name}`,
        rankings.filter((r) => r.category === Number(category)),
      ),
    ),
  ];
}
