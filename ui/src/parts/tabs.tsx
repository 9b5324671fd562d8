/**
 * The views as ARIA tabs (the WAI-ARIA tabs pattern, automatic activation): one tab stop, the
 * arrow keys, Home and End move between tabs and open the one they land on.
 *
 * @module
 */

import type { TargetedKeyboardEvent } from "preact";

export interface TabSpec<Id extends string> {
  readonly id: Id;
  readonly label: string;
}

export const tabId = (id: string) => `tab-${id}`;
export const panelId = (id: string) => `panel-${id}`;

export function Tabs<Id extends string>(props: {
  readonly tabs: readonly TabSpec<Id>[];
  readonly selected: Id;
  onSelect(id: Id): void;
}) {
  const { tabs, selected, onSelect } = props;
  const onKeyDown = (event: TargetedKeyboardEvent<HTMLElement>) => {
    const at = tabs.findIndex((tab) => tab.id === selected);
    const moves: Record<string, number> = {
      ArrowRight: at + 1,
      ArrowLeft: at - 1,
      Home: 0,
      End: tabs.length - 1,
    };
    const to = moves[event.key];
    if (to === undefined) return;
    event.preventDefault();
    const next = tabs[(to + tabs.length) % tabs.length];
    if (next === undefined) return;
    onSelect(next.id);
    document.getElementById(tabId(next.id))?.focus();
  };
  return (
    <div role="tablist" aria-label="Views" class="tabs" onKeyDown={onKeyDown}>
      {tabs.map((tab) => (
        <button
          key={tab.id}
          type="button"
          role="tab"
          id={tabId(tab.id)}
          aria-selected={tab.id === selected}
          // Only the selected view's panel is in the page: the others control nothing yet.
          aria-controls={tab.id === selected ? panelId(tab.id) : undefined}
          tabIndex={tab.id === selected ? 0 : -1}
          onClick={() => onSelect(tab.id)}
        >
          {tab.label}
        </button>
      ))}
    </div>
  );
}
