// Providers L-R (Microsoft's products among them), each from the provider's own documentation
// of its token format or its own source that issues the token (prefix, alphabet, length).
// Generic shapes are reported only where the provider is named before them.
import type { ProviderFamily } from "../tokenRules.js";
import { alnum, HEX32, HEX40, HEX64, named, prefixed } from "./shapes.js";

/** An issuer's families that share one token body after their own prefixes, documented in one file. */
const issuer =
  (provider: string, body: string, docs: string) =>
  (id: string, secret: string, prefix: string): ProviderFamily =>
    prefixed(id, provider, secret, prefix, `${prefix}${body}`, docs);

// Polar's server issues its credentials as a prefix and 37 random alphanumerics plus a 6-character
// base62 CRC32 (43 in all); tokens issued before that are 43 URL-safe Base64 characters. OAuth2
// access and refresh tokens carry the subject type (`u_` user, `o_` organization) after the prefix.
const POLAR_TOKEN_SOURCE = "https://github.com/polarsource/polar/blob/main/server/polar/oauth2/constants.py";
const polar = issuer("Polar", "[A-Za-z0-9_-]{43}", POLAR_TOKEN_SOURCE);
const polarOAuth = issuer("Polar", "(?:[uo]_)?[A-Za-z0-9_-]{43}", POLAR_TOKEN_SOURCE);

// NetBird's management server issues a prefix, 30 random base62 characters and a 6-character base62
// CRC32 of them: 40 characters in all.
const netbird = (id: string, secret: string, prefix: string, file: string): ProviderFamily =>
  issuer(
    "NetBird",
    "[A-Za-z0-9]{36}",
    `https://github.com/netbirdio/netbird/blob/main/management/server/types/${file}`,
  )(id, secret, prefix);

// LangWatch's keys: a prefix, a 16-character lookup id, `_` and a 48-character secret, both base62.
const langwatch = issuer(
  "LangWatch",
  "[A-Za-z0-9]{16}_[A-Za-z0-9]{48}",
  "https://github.com/langwatch/langwatch/blob/main/langwatch/src/server/api-key/api-key-token.utils.ts",
);

// Pterodactyl's panel: an identifier (the prefix and 11 random alphanumerics) and a 32-character key;
// Pelican, its successor, keeps the layout under prefixes of its own.
const PANEL_KEY = "[A-Za-z0-9]{43}";
const pterodactyl = issuer(
  "Pterodactyl",
  PANEL_KEY,
  "https://github.com/pterodactyl/panel/blob/1.0-develop/app/Models/ApiKey.php",
);
const pelican = issuer(
  "Pelican Panel",
  PANEL_KEY,
  "https://github.com/pelican-dev/panel/blob/main/app/Models/ApiKey.php",
);

// Radarr, Lidarr, Readarr and Prowlarr generate their API key as a GUID without dashes (32 lower-case
// hexadecimal characters), in the same ConfigFileProvider.
const arr = (id: string, provider: string, repo: string): ProviderFamily =>
  named(
    id,
    provider,
    "API key",
    [provider.toLowerCase()],
    HEX32,
    `https://github.com/${repo}/blob/develop/src/NzbDrone.Core/Configuration/ConfigFileProvider.cs`,
  );

// PostHog's keys: a prefix and a random integer in base 57 (base 62 before), of 32 or 35 bytes.
const posthog = (id: string, secret: string, prefix: string, length: string): ProviderFamily =>
  prefixed(
    id,
    "PostHog",
    secret,
    prefix,
    `${prefix}[A-Za-z0-9]{${length}}`,
    "https://github.com/PostHog/posthog/blob/master/posthog/models/utils.py",
  );

export const FAMLR_FAMILIES: ProviderFamily[] = [
  prefixed(
    "polar-organization-access-token",
    "Polar",
    "organization access token",
    "polar_oat_",
    "polar_oat_[A-Za-z0-9]{43}",
    "https://github.com/polarsource/polar/blob/main/server/polar/organization_access_token/service.py",
  ),
  polarOAuth("polar-oauth-access-token", "OAuth2 access token", "polar_at_"),
  polarOAuth("polar-oauth-refresh-token", "OAuth2 refresh token", "polar_rt_"),
  polar("polar-oauth-client-secret", "OAuth2 client secret", "polar_cs_"),
  polar("polar-client-registration-token", "OAuth2 client registration token", "polar_crt_"),
  polar("polar-webhook-secret", "webhook secret", "polar_whs_"),
  posthog("posthog-secret-api-key", "project secret API key (feature flag local evaluation)", "phs_", "45,49"),
  posthog("posthog-oauth-access-token", "OAuth access token", "pha_", "40,44"),
  posthog("posthog-oauth-refresh-token", "OAuth refresh token", "phr_", "40,44"),
  named(
    "microsoft-bing-maps-key",
    "Microsoft Bing Maps",
    "Bing Maps key",
    ["bing", "bingmaps", "virtualearth"],
    "[A-Za-z0-9_-]{64}",
    "https://learn.microsoft.com/en-us/purview/sit-defn-microsoft-bing-maps-key",
  ),
  netbird("netbird-personal-access-token", "personal access token", "nbp_", "personal_access_token.go"),
  netbird("netbird-proxy-access-token", "proxy access token", "nbx_", "proxy_access_token.go"),
  netbird("netbird-invite-token", "user invite token", "nbi_", "user_invite.go"),
  langwatch("langwatch-api-key", "API key", "sk-lw-"),
  langwatch("langwatch-ingest-key", "ingestion-only API key", "ik-lw-"),
  langwatch("langwatch-legacy-personal-access-token", "personal access token (legacy prefix)", "pat-lw-"),
  pterodactyl("pterodactyl-client-api-key", "client (account) API key", "ptlc_"),
  pterodactyl("pterodactyl-application-api-key", "application API key", "ptla_"),
  prefixed(
    "outline-api-key",
    "Outline",
    "API key",
    "ol_api_",
    "ol_api_[A-Za-z0-9]{38}",
    "https://github.com/outline/outline/blob/main/server/models/ApiKey.ts",
  ),
  prefixed(
    "plane-api-token",
    "Plane",
    "API token",
    "plane_api_",
    "plane_api_[a-f0-9]{32}",
    "https://github.com/makeplane/plane/blob/preview/apps/api/plane/db/models/api.py",
  ),
  arr("radarr-api-key", "Radarr", "Radarr/Radarr"),
  arr("lidarr-api-key", "Lidarr", "Lidarr/Lidarr"),
  arr("readarr-api-key", "Readarr", "Readarr/Readarr"),
  arr("prowlarr-api-key", "Prowlarr", "Prowlarr/Prowlarr"),
  named(
    "odoo-api-key",
    "Odoo",
    "user API key",
    ["odoo"],
    HEX40,
    "https://github.com/odoo/odoo/blob/master/odoo/addons/base/models/res_users_apikeys.py",
  ),
  named(
    "octoprint-api-key",
    "OctoPrint",
    "API key",
    ["octoprint"],
    "[A-F0-9]{32}",
    "https://github.com/OctoPrint/OctoPrint/blob/HEAD/src/octoprint/util/__init__.py",
  ),
  named(
    "moonraker-api-key",
    "Moonraker",
    "API key",
    ["moonraker"],
    HEX32,
    "https://github.com/Arksine/moonraker/blob/master/moonraker/components/authorization.py",
  ),
  pelican("pelican-client-api-key", "client (account) API key", "pacc_"),
  pelican("pelican-application-api-key", "application API key", "papp_"),
  prefixed(
    "memos-personal-access-token",
    "Memos",
    "personal access token",
    "memos_pat_",
    "memos_pat_[A-Za-z0-9]{32}",
    "https://github.com/usememos/memos/blob/main/server/auth/token.go",
  ),
  named(
    "matomo-token-auth",
    "Matomo",
    "token_auth (API authentication token)",
    ["matomo", "piwik"],
    HEX32,
    "https://github.com/matomo-org/matomo/blob/HEAD/plugins/UsersManager/Model.php",
  ),
  named(
    "moodle-web-service-token",
    "Moodle",
    "web service token",
    ["moodle", "wstoken"],
    HEX32,
    "https://github.com/moodle/moodle/blob/MOODLE_405_STABLE/lib/external/classes/util.php",
  ),
  named(
    "redash-api-key",
    "Redash",
    "user or query API key",
    ["redash"],
    alnum(40),
    "https://github.com/getredash/redash/blob/master/redash/models/users.py",
  ),
  named(
    "nautobot-api-token",
    "Nautobot",
    "REST API token",
    ["nautobot"],
    HEX40,
    "https://github.com/nautobot/nautobot/blob/develop/nautobot/users/models.py",
  ),
  named(
    "openproject-api-token",
    "OpenProject",
    "API token",
    ["openproject"],
    HEX64,
    "https://github.com/opf/openproject/blob/dev/app/models/token/base.rb",
  ),
  named(
    "plausible-api-key",
    "Plausible Analytics",
    "API key",
    ["plausible"],
    "[A-Za-z0-9_-]{64}",
    "https://github.com/plausible/analytics/blob/master/lib/plausible/auth/api_key.ex",
  ),
  named(
    "overseerr-api-key",
    "Overseerr",
    "API key",
    ["overseerr"],
    "[A-Za-z0-9+/]{66}==",
    "https://github.com/sct/overseerr/blob/develop/server/lib/settings.ts",
  ),
  named(
    "miniflux-api-key",
    "Miniflux",
    "API key",
    ["miniflux"],
    "[A-Za-z0-9_-]{43}=",
    "https://github.com/miniflux/v2/blob/main/internal/model/api_key.go",
  ),
];
