import { checkVectors } from "../embed/check-vectors.js";
import type { EmbedPurpose } from "../embed/embedder.js";
import { LucidError } from "../errors.js";
import type { MemoryContext } from "./context.js";

/** Embeds with the configured embedder and checks what came back, whoever wrote the embedder. */
export async function embedTexts(
  context: MemoryContext,
  texts: readonly string[],
  purpose: EmbedPurpose,
): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  assertEmbedderCurrent(context);
  const vectors = await context.embedder.embed(texts, purpose);
  return checkVectors(context.embedder, texts, vectors);
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
