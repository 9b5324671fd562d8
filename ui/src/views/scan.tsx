/**
 * The Scan view: look through the scope's memories for credentials (`POST /lucid/v1/scan`) and
 * list what was found — which memory, where in it, what kind — masked by the server; then the
 * memories that read as instructions to the agent (possible injections), with the words they rest on.
 *
 * @module
 */

import { useEffect, useState } from "preact/hooks";
import { api } from "../api.js";
import { hasScope, useApp } from "../app-context.js";
import { useTask } from "../tasks.js";
import type { ScanResult } from "../wire.js";

export function ScanView() {
  const app = useApp();
  const task = useTask();
  const [result, setResult] = useState<ScanResult | null>(null);
  useEffect(() => setResult(null), [app.scope]);
  if (!hasScope(app)) return <p class="hint">Choose a scope above to scan its memories.</p>;

  const scan = async () => {
    const found = await task.run(() =>
      api<ScanResult>("/lucid/v1/scan", { method: "POST", body: { ...app.scope } }),
    );
    if (found !== undefined) setResult(found);
  };
  return (
    <section aria-labelledby="scan-title" aria-busy={task.busy}>
      <h2 id="scan-title">Scan</h2>
      <p class="muted">
        Looks for credentials stored in memories (values are masked), and for memories that read as
        instructions to the agent.
      </p>
      <div class="toolbar">
        <button type="button" class="primary" disabled={task.busy} onClick={scan}>
          {task.busy ? "Scanning…" : "Scan memories"}
        </button>
      </div>
      {result !== null && (
        <>
          <p role="status">
            {result.scanned} memories scanned: {result.findings.length}{" "}
            {result.findings.length === 1 ? "finding" : "findings"}
            {result.injections.length > 0 &&
              `, ${result.injections.length} possible ${result.injections.length === 1 ? "injection" : "injections"}`}
            .
          </p>
          {result.findings.length > 0 && (
            <div class="table-wrap">
              <table class="findings">
                <thead>
                  <tr>
                    <th scope="col">Memory</th>
                    <th scope="col">Where</th>
                    <th scope="col">Kind</th>
                    <th scope="col">Excerpt</th>
                  </tr>
                </thead>
                <tbody>
                  {result.findings.map((finding) => (
                    <tr key={`${finding.id}:${finding.field}:${finding.start}`}>
                      <th scope="row">
                        <code>{finding.id}</code>
                      </th>
                      <td>{finding.field}</td>
                      <td>{finding.kind}</td>
                      <td>
                        <code>{finding.preview}</code>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
          {result.injections.length > 0 && (
            <div class="table-wrap">
              <table class="findings" aria-label="Possible injections">
                <thead>
                  <tr>
                    <th scope="col">Memory</th>
                    <th scope="col">Reads as an instruction to the agent</th>
                    <th scope="col">Score</th>
                  </tr>
                </thead>
                <tbody>
                  {result.injections.map((injection) => (
                    <tr key={injection.id}>
                      <th scope="row">
                        <code>{injection.id}</code>
                      </th>
                      <td>{injection.cues.join(", ")}</td>
                      <td>{injection.score.toFixed(2)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      )}
    </section>
  );
}
