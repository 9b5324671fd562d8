/**
 * The people a query names. A person the scope knows as a speaker says little about what the
 * question means, and in a short question drowns the rest of it in the embedding (LoCoMo dev:
 * dense recall@10 0.405 → 0.463 with USE-lite when the names are left out); the speaker prior
 * carries the name instead.
 *
 * @module
 */

import type { Entity } from "../text/entities.js";

/** The proper nouns among a query's entities, as written, once each. */
export function namesIn(entities: readonly Entity[]): string[] {
  return [...new Set(entities.filter((entity) => entity.type === "name").map((entity) => entity.name))];
}

/** The query without the names of the scope's speakers (and their possessive), as the dense signal reads it. */
export function withoutNames(text: string, speakers: readonly string[]): string {
  if (speakers.length === 0) return text;
  const escaped = speakers.map((name) => name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  const pattern = new RegExp(`\\b(?:${escaped.join("|")})(?:['’]s?)?\\b`, "giu");
  const stripped = text.replace(pattern, " ").replace(/\s+/gu, " ").trim();
  // A query that was nothing but a name keeps it: an empty embedding says nothing.
  return /[\p{L}\p{N}]/u.test(stripped) ? stripped : text;
}
