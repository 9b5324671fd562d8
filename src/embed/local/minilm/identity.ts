/** What MiniLM stamps a store with, in a module of its own: knowing it loads none of the model's code. */
export const MINILM_ID = "minilm-l6-v2@0.1.0";
export const MINILM_DIMENSION = 384;
