/**
 * wink-nlp with its English model, loaded once per process on first use, not at import: the model
 * takes ~100 ms to read, and most importers of the library (a CLI listing memories, say) never tag
 * a word. Sentence boundaries and part of speech only: NER, negation and sentiment are unused and
 * cost ~30%.
 *
 * @module
 */

import { createRequire } from "node:module";
import type { Model } from "wink-eng-lite-web-model";
import type { WinkMethods } from "wink-nlp";

const require = createRequire(import.meta.url);
let nlp: WinkMethods | undefined;

export function tagger(): WinkMethods {
  if (nlp === undefined) {
    const winkNLP = require("wink-nlp") as (model: Model, pipe?: string[]) => WinkMethods;
    const model = require("wink-eng-lite-web-model") as Model;
    nlp = winkNLP(model, ["sbd", "pos"]);
  }
  return nlp;
}
