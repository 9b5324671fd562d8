/**
 * Payments and commerce: Stripe secret, restricted and webhook-signing keys; Shopify app tokens.
 *
 * @module
 */

import type { SecretRule } from "../types.js";
import { prefixedRule } from "./shape.js";

export const PAYMENT_RULES: readonly SecretRule[] = [
  prefixedRule({
    id: "stripe-secret-key",
    kind: "stripe-secret-key",
    reason:
      "Stripe secret keys: `sk_live_` or `sk_test_` + 24 or more base62 characters. Test-mode keys are included: they read and write the account's test data.",
    prefixes: ["sk_live_", "sk_test_"],
    body: "[A-Za-z0-9]{24,247}",
  }),
  prefixedRule({
    id: "stripe-restricted-key",
    kind: "stripe-restricted-key",
    reason: "Stripe restricted keys: `rk_live_` or `rk_test_` + 24 or more base62 characters.",
    prefixes: ["rk_live_", "rk_test_"],
    body: "[A-Za-z0-9]{24,247}",
  }),
  prefixedRule({
    id: "stripe-webhook-secret",
    kind: "stripe-webhook-secret",
    reason:
      "Stripe webhook signing secrets: `whsec_` + 32 or more base64 characters; whoever holds one can forge events.",
    prefixes: ["whsec_"],
    body: "[A-Za-z0-9+/=]{32,100}",
  }),
  prefixedRule({
    id: "shopify-access-token",
    kind: "shopify-access-token",
    reason:
      "Shopify Admin API, custom-app and partner tokens: `shpat_`, `shpca_` or `shppa_` + 32 hex characters.",
    prefixes: ["shpat_", "shpca_", "shppa_"],
    body: "[a-fA-F0-9]{32}",
  }),
  prefixedRule({
    id: "shopify-shared-secret",
    kind: "shopify-shared-secret",
    reason: "Shopify app shared secrets: `shpss_` + 32 hex characters.",
    prefixes: ["shpss_"],
    body: "[a-fA-F0-9]{32}",
  }),
];
