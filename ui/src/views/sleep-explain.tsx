/**
 * Why one candidate would or would not be promoted (`GET /lucid/v1/sleep/explain`): the verdict,
 * each component's value, weight and contribution, and every gate with its threshold.
 *
 * @module
 */

import { api } from "../api.js";
import { Pending } from "../parts/pending.js";
import { useLoad } from "../tasks.js";
import type { Explanation } from "../wire.js";

const n = (value: number) => (Number.isInteger(value) ? String(value) : value.toFixed(3));

export function SleepExplain(props: { readonly target: string }) {
  const explained = useLoad(
    () => api<Explanation>("/lucid/v1/sleep/explain", { query: { target: props.target } }),
    [props.target],
  );
  const e = explained.data;
  if (e === undefined) return <Pending loaded={explained} what={`The explanation of ${props.target}`} />;
  return (
    <section class="explain" aria-labelledby="explain-title">
      <h4 id="explain-title">
        Why <code>{e.address}</code>: {e.verdict}
      </h4>
      <blockquote>{e.snippet}</blockquote>
      <table>
        <caption>
          Score {n(e.score)} (phase boost {n(e.phaseBoost)})
        </caption>
        <thead>
          <tr>
            <th scope="col">Component</th>
            <th scope="col">Value</th>
            <th scope="col">Weight</th>
            <th scope="col">Adds</th>
          </tr>
        </thead>
        <tbody>
          {e.components.map((component) => (
            <tr key={component.component}>
              <th scope="row">{component.component}</th>
              <td>{n(component.value)}</td>
              <td>×{n(component.weight)}</td>
              <td>{n(component.contribution)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <table>
        <caption>Gates</caption>
        <thead>
          <tr>
            <th scope="col">Gate</th>
            <th scope="col">Value</th>
            <th scope="col">Needs</th>
            <th scope="col">Result</th>
            <th scope="col">Why</th>
          </tr>
        </thead>
        <tbody>
          {e.gates.map((gate) => (
            <tr key={gate.gate}>
              <th scope="row">{gate.gate}</th>
              <td>{n(gate.value)}</td>
              <td>{n(gate.threshold)}</td>
              <td>{gate.passed ? "passes" : "fails"}</td>
              <td>{gate.why}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {e.excluded !== null && <p>Excluded: {e.excluded}</p>}
    </section>
  );
}
