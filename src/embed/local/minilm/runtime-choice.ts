/** Which runtime runs MiniLM: its own module, so choosing one loads none of them. */
export const MINILM_RUNTIME_CHOICES = ["auto", "native", "wasm"] as const;
export type MiniLmRuntimeChoice = (typeof MINILM_RUNTIME_CHOICES)[number];
