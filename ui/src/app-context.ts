/**
 * What every view shares, from the App: the scope calls act in (the key's when it is bound), the
 * server's info, and `report` — the one way a failure reaches the page's alert region (and a 401
 * reaches the key prompt). `epoch` changes when a key is given, so views load again with it;
 * `revision` when a view changed which memories there are (an apply, an undo, a delete), so what
 * counts them (the header's scopes) reads them again.
 *
 * @module
 */

import { createContext } from "preact";
import { useContext } from "preact/hooks";
import type { Info, Scope } from "./wire.js";

export interface AppState {
  readonly scope: Scope;
  readonly info: Info | null;
  readonly epoch: number;
  readonly revision: number;
  /** Says the store's memories changed: counts shown elsewhere are read again. */
  changed(): void;
  report(error: unknown): void;
  /** Empties the alert region: a new action starts. */
  clearReport(): void;
}

export const AppContext = createContext<AppState>({
  scope: {},
  info: null,
  epoch: 0,
  revision: 0,
  changed: () => {},
  report: () => {},
  clearReport: () => {},
});

export function useApp(): AppState {
  return useContext(AppContext);
}

/** Whether calls may name no scope: the key's, or the server's defaults, stand in. */
export function hasScope(state: AppState): boolean {
  return Object.keys(state.scope).length > 0 || Object.keys(state.info?.defaults ?? {}).length > 0;
}
