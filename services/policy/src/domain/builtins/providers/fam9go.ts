// Providers G-O (fam9go): each from the provider's own documentation of its token format or from
// the code in its own official repository that issues the token (prefix, alphabet, length).
// Self-identifying prefixes stand alone; generic shapes are reported only where the provider is
// named before them.
import type { ProviderFamily } from "../tokenRules.js";
import { alnum, HEX40, HEX64, named, prefixed } from "./shapes.js";

const GOTIFY_TOKEN = "https://github.com/gotify/server/blob/HEAD/auth/token.go";
const GITLAB_TOKENS = "https://docs.gitlab.com/security/tokens/#token-prefixes";
const NETSAPIENS_KEYS = "https://docs.ns-api.com/docs/api-keys";
const KEYGEN_TOKEN = "https://github.com/keygen-sh/keygen-api/blob/HEAD/app/models/token.rb";

// NetSapiens API keys: 60 characters, a 4-character prefix naming the key's scope, 48 random
// characters and an 8-character CRC of the first 52 (alphanumerics in the documented example).
const netsapiens = (scope: string, prefix: string) =>
  prefixed(
    `netsapiens-${scope.toLowerCase().replace(/[^a-z]+/g, "-")}-api-key`,
    "NetSapiens",
    `${scope} API key`,
    prefix,
    `${prefix}[A-Za-z0-9]{56}`,
    NETSAPIENS_KEYS,
  );

// Keygen API tokens (version 3): the bearer's prefix, `-`, `SecureRandom.hex(32)` (64 hexadecimal
// characters; 16 bytes, 32 characters, for license activation tokens) and `v3`
// (app/models/concerns/tokenable.rb).
const keygen = (id: string, secret: string, prefix: string | string[], bytes: number): ProviderFamily => ({
  id: `keygen-${id}`,
  provider: "Keygen",
  secret,
  prefix,
  token: `${Array.isArray(prefix) ? `(?:${prefix.join("|")})` : prefix}[a-f0-9]{${bytes * 2}}v3`,
  docs: KEYGEN_TOKEN,
});

export const FAM9GO_FAMILIES: ProviderFamily[] = [
  // Gotify 3: an Ed25519 seed as unpadded URL-safe Base64 (43 characters) after `gtfy`, the
  // token's kind (`a` application, `c` client) and a dot.
  prefixed(
    "gotify-application-token",
    "Gotify",
    "application token (sends messages)",
    "gtfya.",
    String.raw`gtfya\.[A-Za-z0-9_-]{43}`,
    GOTIFY_TOKEN,
  ),
  prefixed(
    "gotify-client-token",
    "Gotify",
    "client token (manages messages, applications and clients)",
    "gtfyc.",
    String.raw`gtfyc\.[A-Za-z0-9_-]{43}`,
    GOTIFY_TOKEN,
  ),
  // Gotify before 3: `A` (application) or `C` (client) and 14 characters of letters, digits,
  // `.`, `-` and `_`.
  named(
    "gotify-legacy-token",
    "Gotify",
    "application or client token (before version 3)",
    ["gotify"],
    "[AC][A-Za-z0-9._-]{14}",
    "https://github.com/gotify/server/blob/v2.9.1/auth/token.go",
  ),
  // listmonk API users: the token is 48 random alphanumerics (`api_user:token`).
  named(
    "listmonk-api-token",
    "listmonk",
    "API user token",
    ["listmonk"],
    alnum(48),
    "https://github.com/knadh/listmonk/blob/HEAD/internal/core/users.go",
  ),
  // Gogs access tokens: the SHA-1 of a random UUID in hexadecimal.
  named(
    "gogs-access-token",
    "Gogs",
    "access token",
    ["gogs"],
    HEX40,
    "https://github.com/gogs/gogs/blob/HEAD/internal/database/access_tokens.go",
  ),
  // OpenStatus API keys: `os_` and 16 random bytes in hexadecimal.
  prefixed(
    "openstatus-api-key",
    "OpenStatus",
    "API key",
    "os_",
    "os_[a-f0-9]{32}",
    "https://github.com/openstatusHQ/openstatus/blob/HEAD/packages/db/src/utils/api-key.ts",
  ),
  // Immich API keys: 32 random bytes in Base64 with `+`, `/` and `=` removed (at most 43
  // alphanumerics, a few fewer when the encoding had `+` or `/`).
  named(
    "immich-api-key",
    "Immich",
    "API key",
    ["immich"],
    "[A-Za-z0-9]{32,43}",
    "https://github.com/immich-app/immich/blob/HEAD/server/src/repositories/crypto.repository.ts",
  ),
  // Misskey: access tokens of apps and MiAuth are 32 alphanumerics; the account's own native
  // token (`i`) is 16.
  named(
    "misskey-access-token",
    "Misskey",
    "access token (apps, MiAuth)",
    ["misskey"],
    alnum(32),
    "https://github.com/misskey-dev/misskey/blob/HEAD/packages/backend/src/server/api/endpoints/miauth/gen-token.ts",
  ),
  named(
    "misskey-native-token",
    "Misskey",
    "account native token (`i`)",
    ["misskey"],
    alnum(16),
    "https://github.com/misskey-dev/misskey/blob/HEAD/packages/backend/src/misc/generate-native-user-token.ts",
  ),
  // Logto: `generateStandardSecret()` is 32 alphanumerics; personal access tokens put `pat_`
  // before it (a prefix other products use too, so still only after `logto`).
  named(
    "logto-personal-access-token",
    "Logto",
    "personal access token",
    ["logto"],
    "pat_[A-Za-z0-9]{32}",
    "https://github.com/logto-io/logto/blob/HEAD/packages/core/src/routes/admin-user/personal-access-token.ts",
  ),
  named(
    "logto-application-secret",
    "Logto",
    "application secret",
    ["logto"],
    alnum(32),
    "https://github.com/logto-io/logto/blob/HEAD/packages/shared/src/utils/id.ts",
  ),
  // HCB (Hack Club's finance platform) API tokens: `hcb_` and `SecureRandom.urlsafe_base64(32)`.
  prefixed(
    "hcb-api-token",
    "HCB (Hack Club)",
    "API access token",
    "hcb_",
    "hcb_[A-Za-z0-9_-]{43}",
    "https://github.com/hackclub/hcb/blob/HEAD/app/models/api_token.rb",
  ),
  netsapiens("Super User", "nss_"),
  netsapiens("Reseller", "nsr_"),
  netsapiens("Office Manager", "nsd_"),
  netsapiens("Basic User", "nsu_"),
  // GitLab's token prefix table: workspace tokens (GitLab 18.2) and runner authentication tokens
  // of runners registered with a registration token; the body at least 20 URL-safe characters,
  // as GitLab's other prefixed tokens.
  prefixed("gitlab-workspace-token", "GitLab", "workspace token", "glwt-", "glwt-[A-Za-z0-9_-]{20,64}", GITLAB_TOKENS),
  prefixed(
    "gitlab-registered-runner-token",
    "GitLab",
    "runner authentication token (runner registered with a registration token)",
    "glrtr-",
    "glrtr-[A-Za-z0-9_-]{20,64}",
    GITLAB_TOKENS,
  ),
  // Metabase API keys: `mb_` and 32 random bytes in standard, padded Base64 (44 characters).
  prefixed(
    "metabase-api-key",
    "Metabase",
    "API key",
    "mb_",
    "mb_[A-Za-z0-9+/]{43}=",
    "https://github.com/metabase/metabase/blob/HEAD/src/metabase/api_keys/models/api_key.clj",
  ),
  // Karakeep (formerly Hoarder) API keys, version 2: `ak2_`, a 10-byte key id and a 16-byte
  // secret, both hexadecimal, joined by `_`.
  prefixed(
    "karakeep-api-key",
    "Karakeep",
    "API key",
    "ak2_",
    "ak2_[a-f0-9]{20}_[a-f0-9]{32}",
    "https://github.com/karakeep-app/karakeep/blob/HEAD/packages/trpc/auth.ts",
  ),
  // Onyx: its prefix, on a multi-tenant deployment the URL-encoded tenant id and a dot, then
  // `secrets.token_urlsafe(192)` (256 characters) for API keys and personal access tokens, or
  // `secrets.token_urlsafe(48)` (64) for SCIM tokens.
  prefixed(
    "onyx-api-key",
    "Onyx",
    "API key",
    "on_",
    String.raw`on_(?:[A-Za-z0-9%_-]{1,64}\.)?[A-Za-z0-9_-]{256}`,
    "https://github.com/onyx-dot-app/onyx/blob/HEAD/backend/onyx/auth/api_key.py",
  ),
  prefixed(
    "onyx-personal-access-token",
    "Onyx",
    "personal access token",
    "onyx_pat_",
    String.raw`onyx_pat_(?:[A-Za-z0-9%_-]{1,64}\.)?[A-Za-z0-9_-]{256}`,
    "https://github.com/onyx-dot-app/onyx/blob/HEAD/backend/onyx/auth/pat.py",
  ),
  prefixed(
    "onyx-scim-token",
    "Onyx",
    "SCIM bearer token",
    "onyx_scim_",
    String.raw`onyx_scim_(?:[A-Za-z0-9%_-]{1,64}\.)?[A-Za-z0-9_-]{64}`,
    "https://github.com/onyx-dot-app/onyx/blob/HEAD/backend/ee/onyx/server/scim/auth.py",
  ),
  // Lightdash personal access tokens: `ldpat_` and 16 random bytes in hexadecimal.
  prefixed(
    "lightdash-personal-access-token",
    "Lightdash",
    "personal access token",
    "ldpat_",
    "ldpat_[a-f0-9]{32}",
    "https://github.com/lightdash/lightdash/blob/HEAD/packages/backend/src/models/DashboardModel/PersonalAccessTokenModel.ts",
  ),
  // Mapbox temporary tokens (at most an hour): `tk.`, the base64url JSON payload that carries the
  // token's metadata itself, a dot and the signature (Mapbox's token format).
  {
    ...prefixed(
      "mapbox-temporary-token",
      "Mapbox",
      "temporary access token",
      "tk.eyJ",
      String.raw`tk\.eyJ[A-Za-z0-9_-]{20,1000}\.[A-Za-z0-9_-]{16,100}`,
      "https://docs.mapbox.com/api/accounts/tokens/#token-format",
    ),
    options: { checks: ["mapbox-token-payload"] },
  },
  // Meilisearch API keys: the HMAC-SHA256 of the key's UUID under the master key, in hexadecimal.
  named(
    "meilisearch-api-key",
    "Meilisearch",
    "API key (search, admin or custom key)",
    ["meilisearch", "meili"],
    HEX64,
    "https://github.com/meilisearch/meilisearch/blob/HEAD/crates/meilisearch-auth/src/store.rs",
  ),
  keygen("admin-token", "admin token", "admin-", 32),
  keygen("product-token", "product token", "prod-", 32),
  keygen("environment-token", "environment token", "env-", 32),
  keygen("user-token", "user token", "user-", 32),
  keygen("license-token", "license (activation) token", "activ-", 16),
  keygen(
    "team-token",
    "developer, sales, support or read-only team member token",
    ["dev-", "sales-", "spprt-", "read-"],
    32,
  ),
];
