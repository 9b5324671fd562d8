import { checkVectors } from "../embed/check-vectors.js";
import type { EmbedPurpose } from "../embed/embedder.js";
import { LucidError } from "../errors.js";
import type { EmbedderStamp } from "../store/ports/maintenance.js";
import type { MemoryContext } from "./context.js";

/** Embeds with the configured embedder and checks what came back, whoever wrote the embedder. */
export async function embedTexts(
  context: MemoryContext,
  texts: readonly string[],
  purpose: EmbedPurpose,
): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  assertEmbedderCurrent(context);
  await assertStoreEmbedder(context, context.store);
  const vectors = await context.embedder.embed(texts, purpose);
  return checkVectors(context.embedder, texts, vectors);
}

/**
 * `EMBEDDER_MISMATCH` when the store's vectors are no longer this context's embedder's: another
 * process re-embedded the store after this one opened it. Checked before anything embeds (a search,
 * a write) and again inside each write transaction, so vectors of two models never mix.
 */
export async function assertStoreEmbedder(
  context: Pick<MemoryContext, "embedderStamp" | "store">,
  reader: { embedderStamp(): Promise<EmbedderStamp | null> },
): Promise<void> {
  const mismatch = embedderMismatch(
    await reader.embedderStamp(),
    context.embedderStamp,
    context.store.location,
  );
  if (mismatch !== undefined) throw mismatch;
}

/** The error for a store whose vectors (`stored`) are not `ours`, or undefined when they match. */
export function embedderMismatch(
  stored: EmbedderStamp | null,
  ours: EmbedderStamp,
  location: string,
): LucidError | undefined {
  if (stored === null || (stored.id === ours.id && stored.dimension === ours.dimension)) return undefined;
  return new LucidError(
    "EMBEDDER_MISMATCH",
    `${location} now holds vectors from ${stored.id} (${stored.dimension}-d): it was re-embedded after this process opened it with ${ours.id} (${ours.dimension}-d). Open it again with that embedder (restart the server or command; lucid.config.json names it).`,
    { details: { recorded: stored, given: ours } },
  );
}

/** Refuses to mix vectors of two models while a store waits to be re-embedded. */
export function assertEmbedderCurrent(context: MemoryContext): void {
  const stale = context.staleEmbedder;
  if (stale === null) return;
  throw new LucidError(
    "EMBEDDER_MISMATCH",
    `${context.store.location} holds vectors from ${stale.id} (${stale.dimension}-d), not from the configured ${context.embedderStamp.id} (${context.embedderStamp.dimension}-d). Run reembed() (lucid reembed) to switch it.`,
    { details: { recorded: stale, given: context.embedderStamp } },
  );
}
