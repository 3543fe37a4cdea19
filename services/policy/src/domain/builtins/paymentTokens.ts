import { z } from "zod";
import { formatToken, namedSecret } from "./tokenRules.js";
import { type BuiltinPolicy, builtinSettings, docs, paths, SECRET_CLAIMS, SECRET_FRAMEWORKS } from "./types.js";
import { UUID } from "./identifiers.js";
import { SECRETS_CATEGORY } from "../policy.js";

export const paymentTokens: BuiltinPolicy = {
  id: "payment-tokens",
  name: "Payment and banking API keys",
  description:
    "Detects keys that move money or read bank data: Stripe secret, restricted and webhook keys (live, and test-mode unless report_test_keys is off), Square, Plaid, Finicity, GoCardless, Flutterwave and Freemius.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    formatToken(
      "stripe-live-secret-key",
      "Stripe live secret or restricted key found in source code",
      "(?:sk|rk)_(?:live|prod)_[A-Za-z0-9]{24,247}",
      ["sk_live_", "rk_live_", "sk_prod_", "rk_prod_"],
    ),
    // Test mode cannot move money, but the key reads and writes everything the account keeps in
    // test mode (customers, webhooks, Connect settings); GitHub's secret scanning reports it too.
    formatToken(
      "stripe-test-secret-key",
      "Stripe test-mode secret or restricted key found in source code",
      "(?:sk|rk)_test_[A-Za-z0-9]{24,247}",
      ["sk_test_", "rk_test_"],
      { enabled_by: "report_test_keys" },
    ),
    formatToken(
      "stripe-webhook-secret",
      "Stripe webhook signing secret found in source code",
      "whsec_[A-Za-z0-9+/]{32,64}",
      ["whsec_"],
    ),
    // Production and sandbox access tokens: EAAA and 60 characters; the legacy sq0atp- form.
    formatToken(
      "square-access-token",
      "Square access token found in source code",
      "EAAA[A-Za-z0-9_-]{60}|sq0atp-[A-Za-z0-9_-]{22}",
      ["eaaa", "sq0atp-"],
    ),
    formatToken(
      "square-oauth-secret",
      "Square OAuth application secret found in source code",
      "sq0csp-[A-Za-z0-9_-]{43}",
      ["sq0csp-"],
    ),
    {
      id: "plaid-access-token",
      type: "regex",
      value: String.raw`\b(access-(?:sandbox|development|production)-${UUID})\b`,
      message: "Plaid access token (an item's bank-data access) found in source code",
      redact_group: 1,
      keywords: ["access-sandbox-", "access-development-", "access-production-"],
    },
    namedSecret(
      "plaid-client-id",
      "Plaid client id found next to Plaid credentials",
      "plaid",
      "[A-Za-z0-9]{24}",
      ["plaid"],
      { min_entropy: 3.5 },
    ),
    namedSecret("plaid-secret", "Plaid API secret found in source code", "plaid", "[A-Za-z0-9]{30}", ["plaid"], {
      min_entropy: 3.5,
    }),
    namedSecret(
      "finicity-app-key",
      "Finicity (Mastercard Open Banking) app key found in source code",
      "finicity",
      "[a-f0-9]{32}",
      ["finicity"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "finicity-partner-secret",
      "Finicity (Mastercard Open Banking) partner secret found in source code",
      "finicity",
      "[A-Za-z0-9]{20}",
      ["finicity"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "gocardless-access-token",
      "GoCardless access token found in source code",
      "gocardless",
      "(?:live|sandbox)_[A-Za-z0-9_=-]{40}",
      ["gocardless"],
    ),
    formatToken(
      "flutterwave-secret-key",
      "Flutterwave secret key found in source code",
      "FLWSECK(?:_TEST)?-[a-hA-H0-9]{32}-X",
      ["flwseck"],
    ),
    formatToken(
      "flutterwave-encryption-key",
      "Flutterwave encryption key found in source code",
      "FLWSECK(?:_TEST)?-?[a-hA-H0-9]{12}",
      ["flwseck"],
    ),
    // Not a secret alone, but it names the account its secret and encryption keys belong to.
    formatToken(
      "flutterwave-public-key",
      "Flutterwave public key found in source code, next to where its secret key usually is",
      "FLWPUBK(?:_TEST)?-[a-hA-H0-9]{32}-X",
      ["flwpubk"],
    ),
    {
      id: "freemius-secret-key",
      type: "regex",
      // The SDK's PHP configuration array: 'secret_key' => 'sk_…'.
      value: String.raw`(?i:["']secret_key["'])\s*=>\s*["'](sk_[^\s"']{29})["']`,
      message: "Freemius secret key found in source code",
      redact_group: 1,
      keywords: ["secret_key"],
      paths: paths("php"),
    },
  ],
  suggestions: [
    "Roll the key in the provider's dashboard now (a live payment key moves money), then inject it at run time from a secrets manager or the platform's secret store; give tests their own sandbox key from the CI secret store.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("payment-tokens"),
  settings: builtinSettings({
    // On by default: a test-mode key still opens the account's test data and settings.
    report_test_keys: z.boolean().default(true),
  }),
};
