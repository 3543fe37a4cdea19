import { assignment, builtinSettings, docs, SECRET_FRAMEWORKS, TOKEN_END, type BuiltinPolicy } from "./types.js";
import { OTHER_OBJECT_ID } from "./identifiers.js";
import { SECRETS_CATEGORY } from "../policy.js";

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

export const commerceTokens: BuiltinPolicy = {
  id: "commerce-tokens",
  name: "Commerce and shipping API tokens",
  description:
    "Detects tokens of online stores, shipping and travel APIs: Shopify, Etsy, Squarespace, EasyPost, Shippo, Lob and Duffel.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    {
      id: "shopify-access-token",
      type: "regex",
      // Admin API (shpat_), custom app (shpca_), private app (shppa_) tokens and the shared secret (shpss_).
      value: String.raw`\bshp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}\b`,
      message: "Shopify access token or shared secret found in source code",
      keywords: ["shpat_", "shpca_", "shppa_", "shpss_"],
    },
    {
      id: "etsy-api-key",
      type: "regex",
      // "Etsy" as a word of its own, not the letters inside SetSysctl or setSystemInfo.
      value: assignment(String.raw`(?-i:\bETSY|\b[Ee]tsy)`, "[A-Za-z0-9]{24}"),
      message: "Etsy API key (keystring) found in source code",
      redact_group: 1,
      keywords: ["etsy"],
      min_entropy: 3,
    },
    {
      id: "squarespace-api-key",
      type: "regex",
      value: assignment("squarespace", UUID),
      message: "Squarespace API key found in source code",
      redact_group: 1,
      keywords: ["squarespace"],
      match_allowlist: [OTHER_OBJECT_ID],
    },
    {
      id: "easypost-api-key",
      type: "regex",
      // Production keys start EZAK, test keys EZTK.
      value: String.raw`\bEZ[AT]K[A-Za-z0-9]{54}\b`,
      message: "EasyPost API key found in source code",
      keywords: ["ezak", "eztk"],
      min_entropy: 3,
    },
    {
      id: "shippo-api-token",
      type: "regex",
      value: String.raw`\bshippo_(?:live|test)_[a-fA-F0-9]{40}\b`,
      message: "Shippo API token found in source code",
      keywords: ["shippo_"],
    },
    {
      id: "lob-api-key",
      type: "regex",
      value: assignment(String.raw`\blob`, "(?:live|test)_[a-f0-9]{35}"),
      message: "Lob secret API key found in source code",
      redact_group: 1,
      keywords: ["lob"],
    },
    {
      id: "lob-publishable-key",
      type: "regex",
      value: assignment(String.raw`\blob`, "(?:live|test)_pub_[a-f0-9]{31}"),
      message: "Lob publishable API key found in source code",
      redact_group: 1,
      keywords: ["lob"],
    },
    {
      id: "duffel-api-token",
      type: "regex",
      value: String.raw`\b(duffel_(?:live|test)_[A-Za-z0-9_=-]{43})${TOKEN_END}`,
      message: "Duffel API access token found in source code",
      redact_group: 1,
      keywords: ["duffel_"],
    },
  ],
  suggestions: [
    "Revoke the token in the store's or provider's admin now and create a new one with only the scopes the app needs; give it to the application from a secrets manager or CI secret.",
  ],
  documentation_url: docs("commerce-tokens"),
  settings: builtinSettings(),
};
