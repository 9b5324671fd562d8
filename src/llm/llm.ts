/**
 * The Llm port: anything that completes a conversation, as text or as JSON Lucid validates.
 *
 * Lucid needs no LLM: every feature has a deterministic path. Where one is configured it extracts
 * facts (`add` with `infer: true`), judges the pairs dream is unsure of, and writes the sleep
 * diary's narrative. Lucid ships an OpenAI-compatible Chat Completions client (OpenAI, Ollama,
 * vLLM, LM Studio, llama.cpp, LiteLLM…) and an Anthropic Messages client; any object of this
 * shape works too.
 *
 * @module
 */

export interface LlmMessage {
  readonly role: "user" | "assistant";
  readonly content: string;
}

/**
 * The JSON an answer must be: a JSON Schema (sent to servers that support structured outputs)
 * and the check Lucid runs on whatever comes back, which never trusts the server to have obeyed.
 */
export interface JsonOutput<T> {
  /** A short name for the schema (`[a-zA-Z0-9_-]`), sent with it. */
  readonly name: string;
  /** A JSON Schema object describing the answer. */
  readonly schema: Readonly<Record<string, unknown>>;
  /** Returns the answer typed, or throws a message saying what is wrong with it. */
  parse(value: unknown): T;
}

export interface CompleteRequest<T = unknown> {
  /** The system prompt. */
  readonly system: string;
  readonly messages: readonly LlmMessage[];
  /** Ask for JSON of this shape: the answer's `json` is then set, validated. */
  readonly json?: JsonOutput<T>;
  /** Longest answer, in tokens. */
  readonly maxTokens: number;
  /** 0 for the most repeatable answer. */
  readonly temperature: number;
}

/** Tokens one call used, as the server counted them (0 when it did not say). */
export interface LlmUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface CompleteResult<T = unknown> {
  /** The answer's text, as returned. */
  readonly text: string;
  /** The parsed and validated answer, when the request asked for `json`. */
  readonly json: T | undefined;
  readonly usage: LlmUsage;
  /** The model that answered, as the server named it (else the configured one). */
  readonly model: string;
  /**
   * HTTP requests the call took: retries and re-sends included (1 when the client does not say).
   * Tokens are the answering request's; a retried request's are not known.
   */
  readonly requests?: number;
}

export interface Llm {
  /** Names the provider and model, e.g. `"openai-compatible:gpt-4o-mini"`; recorded with every decision. */
  readonly id: string;
  /**
   * One completion. Fails with a `LucidError`: `LLM_TIMEOUT`, `LLM_UNAVAILABLE` (could not reach
   * the server, or it kept failing after retries), `LLM_REJECTED` (4xx: key, model, request),
   * `LLM_BAD_OUTPUT` (not the JSON asked for).
   */
  complete<T = unknown>(request: CompleteRequest<T>): Promise<CompleteResult<T>>;
  /** Releases resources. Optional. */
  close?(): Promise<void>;
}
