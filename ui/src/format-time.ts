/**
 * Instants as people read them: the browser's locale and zone; what does not parse is shown as sent.
 *
 * @module
 */

export function formatTime(iso: string | null | undefined): string {
  if (iso === null || iso === undefined) return "—";
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : date.toLocaleString();
}
