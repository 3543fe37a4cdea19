// Providers F-L (fam10fl): each from the code in the provider's own official repository that issues
// the token (prefix, alphabet, length). Self-identifying prefixes stand alone; generic shapes are
// reported only where the provider is named before them.
import type { ProviderFamily } from "../tokenRules.js";
import { named, prefixed } from "./shapes.js";

const LIGHTDASH = "https://github.com/lightdash/lightdash/blob/HEAD/packages/backend/src";

export const FAM10FL_FAMILIES: ProviderFamily[] = [
  // Karakeep (formerly Hoarder) API keys of the first version, still accepted: `ak1_`, a 10-byte
  // key id and a 10-byte secret, both hexadecimal, joined by `_` (version 2 is `karakeep-api-key`).
  prefixed(
    "karakeep-v1-api-key",
    "Karakeep",
    "API key (version 1, ak1_)",
    "ak1_",
    "ak1_[a-f0-9]{20}_[a-f0-9]{20}",
    "https://github.com/karakeep-app/karakeep/blob/52ac0869d53b54e91db557f012f7ee9a3ecc3e9d/packages/trpc/auth.ts",
  ),
  // Lightdash's token prefixes (`AuthTokenPrefix`): service accounts are `ldsvc_` and 16 random
  // bytes in hexadecimal; OAuth access and refresh tokens `ldapp_`/`ldref_` and `nanoid(64)`
  // (64 URL-safe characters; 32 random bytes in hexadecimal in earlier releases, the same length).
  prefixed(
    "lightdash-service-account-token",
    "Lightdash",
    "service account token",
    "ldsvc_",
    "ldsvc_[a-f0-9]{32}",
    `${LIGHTDASH}/ee/models/ServiceAccountModel.ts`,
  ),
  prefixed(
    "lightdash-oauth-access-token",
    "Lightdash",
    "OAuth access token",
    "ldapp_",
    "ldapp_[A-Za-z0-9_-]{64}",
    `${LIGHTDASH}/models/OAuthModel.ts`,
  ),
  prefixed(
    "lightdash-oauth-refresh-token",
    "Lightdash",
    "OAuth refresh token",
    "ldref_",
    "ldref_[A-Za-z0-9_-]{64}",
    `${LIGHTDASH}/models/OAuthModel.ts`,
  ),
  // Lightdash SCIM organization access tokens: `scim_` and 16 random bytes in hexadecimal (a prefix
  // too common to stand alone, so only after `lightdash`).
  named(
    "lightdash-scim-token",
    "Lightdash",
    "SCIM organization access token",
    ["lightdash"],
    "scim_[a-f0-9]{32}",
    `${LIGHTDASH}/ee/models/ScimOrganizationAccessTokenModel.ts`,
  ),
];
