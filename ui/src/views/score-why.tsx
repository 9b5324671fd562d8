/**
 * "Why this score" for one search result: each signal of `score_breakdown` with its weight and
 * what it added, the sum over what this query could reach at best, and the threshold.
 *
 * @module
 */

import { FUSION_WEIGHTS } from "../../../src/search/fuse.js";
import type { ScoreBreakdown } from "../wire.js";

/** Scores as the list shows them (and the API sends them): 0 to 1, two decimals. */
const n = (value: number) => value.toFixed(2);

export function ScoreWhy(props: { readonly breakdown: ScoreBreakdown }) {
  const b = props.breakdown;
  const signals: [string, number, number][] = [
    ["Meaning (semantic similarity)", b.semanticScore, FUSION_WEIGHTS.semantic],
    ["Words (BM25)", b.bm25Score, FUSION_WEIGHTS.bm25],
    ["Shared entity", b.entityBoost, FUSION_WEIGHTS.entity],
    ["Speaker named", b.speakerMatch, FUSION_WEIGHTS.speaker],
    ["Date named", b.dateMatch, FUSION_WEIGHTS.date],
    ["Time asked", b.timeMatch, FUSION_WEIGHTS.time],
  ];
  const thread = Math.abs(b.finalScore - b.baseScore) >= 5e-7;
  return (
    <details class="why">
      <summary>Why this score</summary>
      <table>
        <caption>
          Score {n(b.finalScore)}: {n(b.rawScore)} of a possible {n(b.maxPossibleScore)}
          {thread ? ", with its conversation's share" : ""}
        </caption>
        <thead>
          <tr>
            <th scope="col">Signal</th>
            <th scope="col">Value</th>
            <th scope="col">Weight</th>
            <th scope="col">Adds</th>
          </tr>
        </thead>
        <tbody>
          {signals.map(([name, value, weight]) => (
            <tr key={name}>
              <th scope="row">{name}</th>
              <td>{n(value)}</td>
              <td>×{weight}</td>
              <td>{n(value * weight)}</td>
            </tr>
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">Base score (sum ÷ best possible)</th>
            <td colSpan={3}>{n(b.baseScore)}</td>
          </tr>
          {thread && (
            <tr>
              <th scope="row">Final score (with its conversation)</th>
              <td colSpan={3}>{n(b.finalScore)}</td>
            </tr>
          )}
          <tr>
            <th scope="row">Threshold</th>
            <td colSpan={3}>{n(b.threshold)}</td>
          </tr>
          <tr>
            <th scope="row">Found by</th>
            <td colSpan={3}>{b.matchedBy.join(", ") || "none"}</td>
          </tr>
        </tfoot>
      </table>
    </details>
  );
}
