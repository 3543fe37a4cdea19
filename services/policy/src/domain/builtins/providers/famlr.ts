// Providers L-R (Microsoft's products among them), each from the provider's own documentation
// of its token format or its own source that issues the token (prefix, alphabet, length).
// Generic shapes are reported only where the provider is named before them.
import type { ProviderFamily } from "../tokenRules.js";
import { named, prefixed } from "./shapes.js";

// Polar's server issues its credentials as a prefix and 37 random alphanumerics plus a 6-character
// base62 CRC32 (43 in all); tokens issued before that are 43 URL-safe Base64 characters.
const POLAR_TOKEN_SOURCE = "https://github.com/polarsource/polar/blob/main/server/polar/oauth2/constants.py";
const polar = (id: string, secret: string, prefix: string, body: string): ProviderFamily =>
  prefixed(id, "Polar", secret, prefix, `${prefix}${body}`, POLAR_TOKEN_SOURCE);

// PostHog's keys: a prefix and a random integer in base 57 (base 62 before), of 32 or 35 bytes.
const POSTHOG_TOKEN_SOURCE = "https://github.com/PostHog/posthog/blob/master/posthog/models/utils.py";

export const FAMLR_FAMILIES: ProviderFamily[] = [
  prefixed(
    "polar-organization-access-token",
    "Polar",
    "organization access token",
    "polar_oat_",
    "polar_oat_[A-Za-z0-9]{43}",
    "https://github.com/polarsource/polar/blob/main/server/polar/organization_access_token/service.py",
  ),
  polar("polar-oauth-access-token", "OAuth2 access token", "polar_at_", "(?:[uo]_)?[A-Za-z0-9_-]{43}"),
  polar("polar-oauth-refresh-token", "OAuth2 refresh token", "polar_rt_", "(?:[uo]_)?[A-Za-z0-9_-]{43}"),
  polar("polar-oauth-client-secret", "OAuth2 client secret", "polar_cs_", "[A-Za-z0-9_-]{43}"),
  polar("polar-client-registration-token", "OAuth2 client registration token", "polar_crt_", "[A-Za-z0-9_-]{43}"),
  polar("polar-webhook-secret", "webhook secret", "polar_whs_", "[A-Za-z0-9_-]{43}"),
  prefixed(
    "posthog-secret-api-key",
    "PostHog",
    "project secret API key (feature flag local evaluation)",
    "phs_",
    "phs_[A-Za-z0-9]{45,49}",
    POSTHOG_TOKEN_SOURCE,
  ),
  prefixed(
    "posthog-oauth-access-token",
    "PostHog",
    "OAuth access token",
    "pha_",
    "pha_[A-Za-z0-9]{40,44}",
    POSTHOG_TOKEN_SOURCE,
  ),
  prefixed(
    "posthog-oauth-refresh-token",
    "PostHog",
    "OAuth refresh token",
    "phr_",
    "phr_[A-Za-z0-9]{40,44}",
    POSTHOG_TOKEN_SOURCE,
  ),
  named(
    "microsoft-bing-maps-key",
    "Microsoft Bing Maps",
    "Bing Maps key",
    ["bing", "bingmaps", "virtualearth"],
    "[A-Za-z0-9_-]{64}",
    "https://learn.microsoft.com/en-us/purview/sit-defn-microsoft-bing-maps-key",
  ),
];
