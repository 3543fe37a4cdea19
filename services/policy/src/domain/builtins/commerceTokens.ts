import { formatToken, namedSecret } from "./tokenRules.js";
import { type BuiltinPolicy, builtinSettings, docs, SECRET_CLAIMS, SECRET_FRAMEWORKS } from "./types.js";
import { OTHER_OBJECT_ID, UUID } from "./identifiers.js";
import { SECRETS_CATEGORY } from "../policy.js";

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
    // Admin API (shpat_), custom app (shpca_), private app (shppa_) tokens and the shared secret (shpss_).
    formatToken(
      "shopify-access-token",
      "Shopify access token or shared secret found in source code",
      "shp(?:at|ca|pa|ss)_[a-fA-F0-9]{32}",
      ["shpat_", "shpca_", "shppa_", "shpss_"],
    ),
    // "Etsy" as a word of its own, not the letters inside SetSysctl or setSystemInfo.
    namedSecret(
      "etsy-api-key",
      "Etsy API key (keystring) found in source code",
      String.raw`(?-i:\bETSY|\b[Ee]tsy)`,
      "[A-Za-z0-9]{24}",
      ["etsy"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "squarespace-api-key",
      "Squarespace API key found in source code",
      "squarespace",
      UUID,
      ["squarespace"],
      { match_allowlist: [OTHER_OBJECT_ID] },
    ),
    // Production keys start EZAK, test keys EZTK.
    formatToken(
      "easypost-api-key",
      "EasyPost API key found in source code",
      "EZ[AT]K[A-Za-z0-9]{54}",
      ["ezak", "eztk"],
      { min_entropy: 3 },
    ),
    formatToken("shippo-api-token", "Shippo API token found in source code", "shippo_(?:live|test)_[a-fA-F0-9]{40}", [
      "shippo_",
    ]),
    namedSecret(
      "lob-api-key",
      "Lob secret API key found in source code",
      String.raw`\blob`,
      "(?:live|test)_[a-f0-9]{35}",
      ["lob"],
    ),
    namedSecret(
      "lob-publishable-key",
      "Lob publishable API key found in source code",
      String.raw`\blob`,
      "(?:live|test)_pub_[a-f0-9]{31}",
      ["lob"],
    ),
    formatToken(
      "duffel-api-token",
      "Duffel API access token found in source code",
      "duffel_(?:live|test)_[A-Za-z0-9_=-]{43}",
      ["duffel_"],
    ),
  ],
  suggestions: [
    "Revoke the token in the store's or provider's admin now and create a new one with only the scopes the app needs; give it to the application from a secrets manager or CI secret.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("commerce-tokens"),
  settings: builtinSettings(),
};
