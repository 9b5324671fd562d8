/**
 * The Memories view: the scope's memories a page at a time, or the results of a search with each
 * score explained. Keys: `/` focuses the search box, j/k (or the arrow keys in the list) move
 * between memories, Enter opens one.
 *
 * @module
 */

import { useEffect, useRef, useState } from "preact/hooks";
import { api } from "../api.js";
import { hasScope, useApp } from "../app-context.js";
import { useLoad } from "../tasks.js";
import type { Memory, MemoryPage } from "../wire.js";
import { MemoryCard } from "./memory-card.js";

const PAGE_SIZE = 20;
const TOP_K = 20;

/** Keys a text field keeps for itself. */
function typing(target: EventTarget | null): boolean {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))
  );
}

export function MemoriesView() {
  const app = useApp();
  const [draft, setDraft] = useState("");
  const [query, setQuery] = useState<string | null>(null);
  const [page, setPage] = useState(1);
  const [openId, setOpenId] = useState<string | null>(null);
  const [items, setItems] = useState<readonly Memory[]>([]);
  /** Memories deleted here since the page was read: the total it showed, less those. */
  const [deleted, setDeleted] = useState(0);
  const search = useRef<HTMLInputElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const ready = hasScope(app);

  // A new scope starts over.
  useEffect(() => {
    setPage(1);
    setQuery(null);
    setDraft("");
  }, [app.scope]);

  // Each answer says what it answers (`query`), so the list is labelled by what it shows.
  const loaded = useLoad<{ results: readonly Memory[]; count?: number; query: string | null }>(
    !ready
      ? null
      : query === null
        ? async () => ({
            // The page in the query string: the list route reads it there (as Mem0's does), not in the body.
            ...(await api<MemoryPage>("/v3/memories/", {
              method: "POST",
              query: { page, page_size: PAGE_SIZE },
              body: { filters: app.scope },
            })),
            query,
          })
        : async () => ({
            ...(await api<{ results: Memory[] }>("/v3/memories/search/", {
              method: "POST",
              body: { query, filters: app.scope, top_k: TOP_K, explain: true },
            })),
            query,
          }),
    [ready, app.scope, query, page],
  );
  useEffect(() => {
    setItems(loaded.data?.results ?? []);
    setDeleted(0);
  }, [loaded.data]);

  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.ctrlKey || event.metaKey || event.altKey || typing(event.target)) return;
      const toggles = [...(list.current?.querySelectorAll<HTMLElement>("[data-memory-toggle]") ?? [])];
      const at = toggles.indexOf(document.activeElement as HTMLElement);
      const inList = at >= 0;
      let step = 0;
      if (event.key === "/") {
        event.preventDefault();
        search.current?.focus();
        return;
      }
      if (event.key === "j" || (inList && event.key === "ArrowDown")) step = 1;
      if (event.key === "k" || (inList && event.key === "ArrowUp")) step = -1;
      if (step === 0 || toggles.length === 0) return;
      event.preventDefault();
      const next = inList ? Math.min(Math.max(at + step, 0), toggles.length - 1) : 0;
      toggles[next]?.focus();
    };
    addEventListener("keydown", onKey);
    return () => removeEventListener("keydown", onKey);
  }, []);

  if (!ready) return <p class="hint">Choose a scope above to see its memories.</p>;
  const count = loaded.data?.count === undefined ? undefined : loaded.data.count - deleted;
  const shownQuery = loaded.data?.query ?? null;
  const pages = count === undefined ? 1 : Math.max(1, Math.ceil(count / PAGE_SIZE));
  return (
    <section aria-labelledby="memories-title" aria-busy={loaded.busy}>
      <h2 id="memories-title">Memories</h2>
      <search>
        <form
          class="search"
          onSubmit={(event) => {
            event.preventDefault();
            setOpenId(null);
            setQuery(draft.trim() === "" ? null : draft.trim());
          }}
        >
          <label for="memory-search">Search memories</label>
          <input
            id="memory-search"
            ref={search}
            type="search"
            value={draft}
            aria-keyshortcuts="/"
            onInput={(event) => setDraft(event.currentTarget.value)}
          />
          <button type="submit">Search</button>
          {query !== null && (
            <button
              type="button"
              onClick={() => {
                setDraft("");
                setQuery(null);
              }}
            >
              Show all
            </button>
          )}
        </form>
      </search>
      <p class="muted" aria-live="polite">
        {loaded.busy
          ? "Loading…"
          : loaded.failed
            ? "The memories could not be loaded: the message above says why."
            : shownQuery === null
              ? `${count ?? items.length} memories`
              : `${items.length} ${items.length === 1 ? "result" : "results"} for “${shownQuery}”`}
      </p>
      <ul ref={list} class="memories" aria-label={shownQuery === null ? "Memories" : "Search results"}>
        {items.map((memory) => (
          <MemoryCard
            key={memory.id}
            memory={memory}
            open={openId === memory.id}
            onToggle={() => setOpenId(openId === memory.id ? null : memory.id)}
            onChange={(updated) =>
              // From the latest list (two changes may overlap); a new text drops its old score.
              setItems((current) =>
                current.map((item) =>
                  item.id !== updated.id
                    ? item
                    : updated.memory === item.memory
                      ? { ...item, ...updated }
                      : { ...updated, score: undefined, score_breakdown: undefined },
                ),
              )
            }
            onDelete={(id) => {
              const at = items.findIndex((item) => item.id === id);
              setItems((current) => current.filter((item) => item.id !== id));
              setDeleted((value) => value + 1);
              // The deleted memory took the cursor with it: it goes to the next one (or the search box).
              setTimeout(() => {
                const toggles = list.current?.querySelectorAll<HTMLElement>("[data-memory-toggle]") ?? [];
                (toggles[at] ?? toggles[at - 1] ?? search.current)?.focus();
              }, 0);
            }}
          />
        ))}
      </ul>
      {shownQuery === null && pages > 1 && (
        <nav class="pager" aria-label="Pages">
          <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
            Previous page
          </button>
          <span>
            Page {page} of {pages}
          </span>
          <button type="button" disabled={page >= pages} onClick={() => setPage(page + 1)}>
            Next page
          </button>
        </nav>
      )}
      <p class="muted keys">
        Keys: <kbd>/</kbd> search, <kbd>j</kbd>/<kbd>k</kbd> next/previous memory, <kbd>Enter</kbd> open.
      </p>
    </section>
  );
}
