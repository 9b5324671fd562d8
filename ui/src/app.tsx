/**
 * The page: the header (scope, API key), the alert region every failure lands in, the views as
 * tabs, and the one view the URL hash names. It owns the state the views share (`AppContext`).
 *
 * @module
 */

import { useCallback, useEffect, useMemo, useState } from "preact/hooks";
import { ApiError, api, storedKey, storeKey } from "./api.js";
import { AppContext, type AppState } from "./app-context.js";
import { KeyForm } from "./parts/key-form.js";
import { ScopePicker } from "./parts/scope-picker.js";
import { panelId, type TabSpec, Tabs, tabId } from "./parts/tabs.js";
import { useRoute, VIEWS, type View } from "./route.js";
import { DreamView } from "./views/dream.js";
import { MemoriesView } from "./views/memories.js";
import { RunsView } from "./views/runs.js";
import { ScanView } from "./views/scan.js";
import { SleepView } from "./views/sleep.js";
import type { Info } from "./wire.js";

const LABELS: Record<View, string> = {
  memories: "Memories",
  dream: "Dream",
  runs: "Runs",
  sleep: "Sleep",
  scan: "Scan",
};

interface Problem {
  readonly detail: string;
  readonly code?: string;
}

export function App() {
  const [route, go] = useRoute();
  const [info, setInfo] = useState<Info | null>(null);
  const [problem, setProblem] = useState<Problem | null>(null);
  const [needKey, setNeedKey] = useState(false);
  const [epoch, setEpoch] = useState(0);
  const [revision, setRevision] = useState(0);
  const changed = useCallback(() => setRevision((value) => value + 1), []);

  const report = useCallback((error: unknown) => {
    if (error instanceof ApiError) {
      if (error.status === 401) setNeedKey(true);
      setProblem({ detail: error.detail, code: error.code });
    } else {
      setProblem({ detail: error instanceof Error ? error.message : String(error) });
    }
  }, []);
  const clearReport = useCallback(() => setProblem(null), []);

  useEffect(() => {
    api<Info>("/lucid/v1/info").then(setInfo, report);
  }, [epoch, report]);

  const scope = info?.bound ?? route.scope;
  const state = useMemo<AppState>(
    () => ({ scope, info, epoch, revision, changed, report, clearReport }),
    [scope, info, epoch, revision, changed, report, clearReport],
  );

  const tabs: TabSpec<View>[] = VIEWS.filter(
    (view) => view !== "sleep" || (info?.workspace ?? null) !== null,
  ).map((id) => ({ id, label: LABELS[id] }));
  // A hash naming sleep on a server without a workspace shows memories.
  const view = tabs.some((tab) => tab.id === route.view) ? route.view : "memories";

  const onKey = (key: string | null) => {
    storeKey(key);
    setNeedKey(key === null);
    setProblem(null);
    setEpoch((value) => value + 1);
  };

  return (
    <AppContext.Provider value={state}>
      <header class="top">
        <h1>Lucid</h1>
        {/* Until the server has a key, there is no scope to pick: the key comes first. */}
        {needKey ? (
          <KeyForm hasKey={storedKey() !== null} onKey={onKey} />
        ) : (
          <ScopePicker onScope={(next) => go({ view, scope: next })} />
        )}
      </header>
      <div role="alert" class={problem === null ? "alert empty" : "alert"}>
        {problem !== null && (
          <>
            <p>
              {problem.detail}
              {problem.code !== undefined && <code class="code">{problem.code}</code>}
            </p>
            <button type="button" onClick={clearReport}>
              Dismiss
            </button>
          </>
        )}
      </div>
      <main>
        <Tabs tabs={tabs} selected={view} onSelect={(next) => go({ view: next, scope: route.scope })} />
        <div id={panelId(view)} role="tabpanel" aria-labelledby={tabId(view)} class="panel">
          {view === "memories" && <MemoriesView />}
          {view === "dream" && <DreamView />}
          {view === "runs" && <RunsView />}
          {view === "sleep" && <SleepView />}
          {view === "scan" && <ScanView />}
        </div>
      </main>
      <footer class="foot">{info !== null && <span>Lucid {info.version}</span>}</footer>
    </AppContext.Provider>
  );
}
