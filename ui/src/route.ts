/**
 * The page's place in the URL hash — `#/dream?user_id=alice` — so a reload keeps the view and the
 * scope, and the browser's back button walks the views.
 *
 * @module
 */

import { useCallback, useEffect, useState } from "preact/hooks";
import { SCOPE_KEYS, type Scope } from "./wire.js";

export const VIEWS = ["memories", "dream", "runs", "sleep", "scan"] as const;
export type View = (typeof VIEWS)[number];

export interface Route {
  readonly view: View;
  readonly scope: Scope;
}

function parseHash(hash: string): Route {
  const [path = "", search = ""] = hash.replace(/^#\/?/, "").split("?");
  const params = new URLSearchParams(search);
  const scope: Scope = {};
  for (const key of SCOPE_KEYS) {
    const value = params.get(key)?.trim();
    if (value) scope[key] = value;
  }
  const view = (VIEWS as readonly string[]).includes(path) ? (path as View) : "memories";
  return { view, scope };
}

function formatHash(route: Route): string {
  const params = new URLSearchParams();
  for (const key of SCOPE_KEYS) {
    const value = route.scope[key];
    if (value !== undefined) params.set(key, value);
  }
  const search = params.toString();
  return `#/${route.view}${search === "" ? "" : `?${search}`}`;
}

/** The route, and a way to go somewhere (a new history entry). */
export function useRoute(): [Route, (route: Route) => void] {
  const [route, setRoute] = useState(() => parseHash(location.hash));
  useEffect(() => {
    const follow = () => setRoute(parseHash(location.hash));
    addEventListener("hashchange", follow);
    return () => removeEventListener("hashchange", follow);
  }, []);
  const go = useCallback((next: Route) => {
    const hash = formatHash(next);
    if (hash !== location.hash) location.hash = hash;
    setRoute(next);
  }, []);
  return [route, go];
}
