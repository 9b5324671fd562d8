/**
 * AI and model providers: OpenAI, Anthropic, OpenRouter, Groq, Hugging Face, xAI, Perplexity,
 * Replicate, LangSmith, Langfuse, Pinecone, Weights & Biases, Mem0 (`m0-`), the `ak_` keys Mem0's prompt lists, and
 * the `sk-` shape many other vendors share.
 *
 * @module
 */

import type { SecretRule } from "../types.js";
import { looksLikeToken } from "../value-shape.js";
import { pattern, prefixedRule } from "./shape.js";

// "OpenAI" in base64: OpenAI embeds it in the middle of its keys.
const OPENAI_MARKER = "T3BlbkFJ";

export const AI_RULES: readonly SecretRule[] = [
  prefixedRule({
    id: "openai-api-key",
    kind: "openai-api-key",
    reason:
      'OpenAI keys: legacy `sk-` + 48 base62, or `sk-proj-` / `sk-svcacct-` / `sk-admin-` + 40 or more base64url. Keys carry `T3BlbkFJ` ("OpenAI" in base64) in the middle: `high` with it, `medium` without.',
    prefixes: ["sk-"],
    body: String.raw`(?:(?:proj|svcacct|admin)-[A-Za-z0-9_\-]{40,250}|[A-Za-z0-9]{48})`,
    assess: ({ value }) => (value.includes(OPENAI_MARKER) ? "high" : "medium"),
  }),
  prefixedRule({
    id: "anthropic-api-key",
    kind: "anthropic-api-key",
    reason:
      "Anthropic keys: `sk-ant-`, a key type with a two-digit version (`api03`, `admin01`), `-`, then 80–120 base64url characters.",
    prefixes: ["sk-ant-"],
    body: String.raw`(?:api|admin|sid|oat)[0-9]{2}-[A-Za-z0-9_\-]{80,120}`,
  }),
  prefixedRule({
    id: "openrouter-api-key",
    kind: "openrouter-api-key",
    reason: "OpenRouter keys: `sk-or-v1-` + 64 lower-case hex characters.",
    prefixes: ["sk-or-v1-"],
    body: "[a-f0-9]{64}",
  }),
  prefixedRule({
    id: "groq-api-key",
    kind: "groq-api-key",
    reason: "Groq keys: `gsk_` + 52 base62 characters.",
    prefixes: ["gsk_"],
    body: "[A-Za-z0-9]{52}",
  }),
  prefixedRule({
    id: "huggingface-token",
    kind: "huggingface-token",
    reason: "Hugging Face user access tokens: `hf_` + 34 ASCII letters (no digits in this format).",
    prefixes: ["hf_"],
    body: "[A-Za-z]{34}",
  }),
  prefixedRule({
    id: "xai-api-key",
    kind: "xai-api-key",
    reason:
      "xAI (Grok) API keys: `xai-` + 80 base62 characters, so model names such as `xai-grok-4` never match.",
    prefixes: ["xai-"],
    body: "[A-Za-z0-9]{80}",
  }),
  prefixedRule({
    id: "perplexity-api-key",
    kind: "perplexity-api-key",
    reason: "Perplexity API keys: `pplx-` + 48 base62 characters.",
    prefixes: ["pplx-"],
    body: "[A-Za-z0-9]{48}",
  }),
  prefixedRule({
    id: "replicate-api-token",
    kind: "replicate-api-token",
    reason:
      "Replicate API tokens: `r8_` + 37 base64url characters, so model slugs such as `r8_stable_diffusion` never match.",
    prefixes: ["r8_"],
    body: String.raw`[A-Za-z0-9_\-]{37}`,
  }),
  prefixedRule({
    id: "langsmith-api-key",
    kind: "langsmith-api-key",
    reason:
      "LangSmith (LangChain) API keys: `lsv2_pt_` (personal) or `lsv2_sk_` (service) + 32 hex, `_`, 10 hex characters.",
    prefixes: ["lsv2_pt_", "lsv2_sk_"],
    body: "[a-f0-9]{32}_[a-f0-9]{10}",
  }),
  prefixedRule({
    id: "langfuse-secret-key",
    kind: "langfuse-secret-key",
    reason:
      "Langfuse secret keys: `sk-lf-` + a lower-case UUID. The public half (`pk-lf-` + UUID) is not a secret and not flagged; the hyphens after `sk-` keep the `sk-` rules off it.",
    prefixes: ["sk-lf-"],
    body: "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}",
  }),
  prefixedRule({
    id: "pinecone-api-key",
    kind: "pinecone-api-key",
    reason: "Pinecone API keys: `pcsk_` + a 5–6 character base62 key id, `_`, then 63 base62 characters.",
    prefixes: ["pcsk_"],
    body: "[A-Za-z0-9]{5,6}_[A-Za-z0-9]{63}",
  }),
  {
    id: "wandb-api-key",
    kind: "wandb-api-key",
    reason:
      'Weights & Biases API keys: 40 hex characters after `wandb login` or after `wandb` and the word `key` (`WANDB_API_KEY=…`, "wandb API key: …"). They look exactly like a git SHA, and W&B records commits, so "wandb run <sha>" is not one.',
    confidence: "medium",
    keywords: ["wandb"],
    pattern: pattern(
      String.raw`wandb(?:[ \t]+login(?:[ \t]+--?[a-z-]+)*|[^\n]{0,30}?key[^\n]{0,24}?)[ \t:="']*(?<![A-Za-z0-9])(?<value>[0-9a-f]{40})(?![A-Za-z0-9])`,
      "i",
    ),
  },
  prefixedRule({
    id: "mem0-api-key",
    kind: "mem0-api-key",
    reason:
      "Mem0 platform keys (`m0-`, one of Mem0's ten prompt prefixes): only with 20–80 base62 characters that pass the generic token test (a digit, ≥ 3.0 bits/char), so `m0-m1` or `m0-ready` never match.",
    prefixes: ["m0-"],
    body: "[A-Za-z0-9]{20,80}",
    confidence: "medium",
    assess: ({ value }) => (looksLikeToken(value.slice(3)) ? "medium" : null),
  }),
  prefixedRule({
    id: "ak-api-key",
    kind: "ak-api-key",
    reason:
      "`ak_` keys (Mem0's prompt prefix; several API vendors use it): only with 20–80 base62 characters that pass the generic token test, so `ak_` identifiers such as `ak_total_count` never match.",
    prefixes: ["ak_"],
    body: "[A-Za-z0-9]{20,80}",
    confidence: "medium",
    assess: ({ value }) => (looksLikeToken(value.slice(3)) ? "medium" : null),
  }),
  prefixedRule({
    id: "sk-api-key",
    kind: "sk-api-key",
    reason:
      "`sk-` + 32 or more base62 characters that pass the generic token test: the shape DeepSeek, Moonshot, Langfuse-style and many OpenAI-compatible vendors share (Mem0's `sk-` prefix). Alphanumerics only after the prefix, so `sk-learn-pipeline` and `task-runner` never match; OpenAI's and Anthropic's own rules win where they apply.",
    prefixes: ["sk-"],
    body: "[A-Za-z0-9]{32,200}",
    confidence: "medium",
    assess: ({ value }) => (looksLikeToken(value.slice(3)) ? "medium" : null),
  }),
];
