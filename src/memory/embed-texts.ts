import { checkVectors } from "../embed/check-vectors.js";
import type { EmbedPurpose } from "../embed/embedder.js";
import type { MemoryContext } from "./context.js";

/** Embeds with the configured embedder and checks what came back, whoever wrote the embedder. */
export async function embedTexts(
  context: MemoryContext,
  texts: readonly string[],
  purpose: EmbedPurpose,
): Promise<Float32Array[]> {
  if (texts.length === 0) return [];
  const vectors = await context.embedder.embed(texts, purpose);
  return checkVectors(context.embedder, texts, vectors);
}
