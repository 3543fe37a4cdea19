import { z } from "zod";
import { assignment, builtinSettings, docs, paths, SECRET_FRAMEWORKS, TOKEN_END, type BuiltinPolicy } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

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
    {
      id: "stripe-live-secret-key",
      type: "regex",
      value: String.raw`\b((?:sk|rk)_(?:live|prod)_[A-Za-z0-9]{24,247})${TOKEN_END}`,
      message: "Stripe live secret or restricted key found in source code",
      redact_group: 1,
      keywords: ["sk_live_", "rk_live_", "sk_prod_", "rk_prod_"],
    },
    {
      id: "stripe-test-secret-key",
      type: "regex",
      // Test mode cannot move money, but the key reads and writes everything the account keeps in
      // test mode (customers, webhooks, Connect settings); GitHub's secret scanning reports it too.
      value: String.raw`\b((?:sk|rk)_test_[A-Za-z0-9]{24,247})${TOKEN_END}`,
      message: "Stripe test-mode secret or restricted key found in source code",
      redact_group: 1,
      keywords: ["sk_test_", "rk_test_"],
      enabled_by: "report_test_keys",
    },
    {
      id: "stripe-webhook-secret",
      type: "regex",
      value: String.raw`\bwhsec_[A-Za-z0-9+/]{32,64}\b`,
      message: "Stripe webhook signing secret found in source code",
      keywords: ["whsec_"],
    },
    {
      id: "square-access-token",
      type: "regex",
      // Production and sandbox access tokens: EAAA and 60 characters; the legacy sq0atp- form.
      value: String.raw`\b(EAAA[A-Za-z0-9_-]{60}|sq0atp-[A-Za-z0-9_-]{22})${TOKEN_END}`,
      message: "Square access token found in source code",
      redact_group: 1,
      keywords: ["eaaa", "sq0atp-"],
    },
    {
      id: "square-oauth-secret",
      type: "regex",
      value: String.raw`\b(sq0csp-[A-Za-z0-9_-]{43})${TOKEN_END}`,
      message: "Square OAuth application secret found in source code",
      redact_group: 1,
      keywords: ["sq0csp-"],
    },
    {
      id: "plaid-access-token",
      type: "regex",
      value: String.raw`\b(access-(?:sandbox|development|production)-${UUID})\b`,
      message: "Plaid access token (an item's bank-data access) found in source code",
      redact_group: 1,
      keywords: ["access-sandbox-", "access-development-", "access-production-"],
    },
    {
      id: "plaid-client-id",
      type: "regex",
      value: assignment("plaid", "[A-Za-z0-9]{24}"),
      message: "Plaid client id found next to Plaid credentials",
      redact_group: 1,
      keywords: ["plaid"],
      min_entropy: 3.5,
    },
    {
      id: "plaid-secret",
      type: "regex",
      value: assignment("plaid", "[A-Za-z0-9]{30}"),
      message: "Plaid API secret found in source code",
      redact_group: 1,
      keywords: ["plaid"],
      min_entropy: 3.5,
    },
    {
      id: "finicity-app-key",
      type: "regex",
      value: assignment("finicity", "[a-f0-9]{32}"),
      message: "Finicity (Mastercard Open Banking) app key found in source code",
      redact_group: 1,
      keywords: ["finicity"],
      min_entropy: 3,
    },
    {
      id: "finicity-partner-secret",
      type: "regex",
      value: assignment("finicity", "[A-Za-z0-9]{20}"),
      message: "Finicity (Mastercard Open Banking) partner secret found in source code",
      redact_group: 1,
      keywords: ["finicity"],
      min_entropy: 3,
    },
    {
      id: "gocardless-access-token",
      type: "regex",
      value: assignment("gocardless", "(?:live|sandbox)_[A-Za-z0-9_=-]{40}"),
      message: "GoCardless access token found in source code",
      redact_group: 1,
      keywords: ["gocardless"],
    },
    {
      id: "flutterwave-secret-key",
      type: "regex",
      value: String.raw`\bFLWSECK(?:_TEST)?-[a-hA-H0-9]{32}-X\b`,
      message: "Flutterwave secret key found in source code",
      keywords: ["flwseck"],
    },
    {
      id: "flutterwave-encryption-key",
      type: "regex",
      value: String.raw`\bFLWSECK(?:_TEST)?-?[a-hA-H0-9]{12}\b`,
      message: "Flutterwave encryption key found in source code",
      keywords: ["flwseck"],
    },
    {
      id: "flutterwave-public-key",
      type: "regex",
      // Not a secret alone, but it names the account its secret and encryption keys belong to.
      value: String.raw`\bFLWPUBK(?:_TEST)?-[a-hA-H0-9]{32}-X\b`,
      message: "Flutterwave public key found in source code, next to where its secret key usually is",
      keywords: ["flwpubk"],
    },
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
  documentation_url: docs("payment-tokens"),
  settings: builtinSettings({
    // On by default: a test-mode key still opens the account's test data and settings.
    report_test_keys: z.boolean().default(true),
  }),
};
