// Providers F-L (fam10fl): each from the code in the provider's own official repository that issues
// the token (prefix, alphabet, length). Self-identifying prefixes stand alone; generic shapes are
// reported only where the provider is named before them.
import type { ProviderFamily } from "../tokenRules.js";
import { alnum, HEX32, named, prefixed, UUID } from "./shapes.js";

const LIGHTDASH = "https://github.com/lightdash/lightdash/blob/HEAD/packages/backend/src";
const HEALTHCHECKS = "https://github.com/healthchecks/healthchecks/blob/HEAD/hc/accounts/models.py";
const KOMODO_API_KEY = "https://github.com/moghtech/komodo/blob/HEAD/bin/core/src/api/user/api_key.rs";

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
  // (64 URL-safe characters; some releases use 32 random bytes in hexadecimal, the same length).
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
  // Healthchecks.io project API keys: `hcw_` (read-write) or `hcr_` (read-only) and
  // `token_urlsafe(21)` redrawn until it has no `-` or `_` (28 letters and digits); earlier releases
  // issued `token_urlsafe(24)` without a prefix (32 URL-safe characters). Ping keys are
  // `token_urlsafe(16)` in lower case without `-` or `_` (22 characters).
  prefixed(
    "healthchecks-read-write-api-key",
    "Healthchecks.io",
    "project API key (read-write)",
    "hcw_",
    "hcw_[A-Za-z0-9]{28}",
    HEALTHCHECKS,
  ),
  prefixed(
    "healthchecks-read-only-api-key",
    "Healthchecks.io",
    "project API key (read-only)",
    "hcr_",
    "hcr_[A-Za-z0-9]{28}",
    HEALTHCHECKS,
  ),
  // The prefixed keys are 32 characters too: the older shape leaves them to their own rules (and
  // keeps the letters-only allowlist every shape after a keyword has).
  {
    ...named(
      "healthchecks-api-key",
      "Healthchecks.io",
      "project API key (before hcw_/hcr_)",
      ["healthchecks"],
      "[A-Za-z0-9_-]{32}",
      HEALTHCHECKS,
    ),
    options: { allowlist: ["^[A-Za-z_.-]+$", "^hc[rw]_"] },
  },
  named(
    "healthchecks-ping-key",
    "Healthchecks.io",
    "project ping key (ping URLs by slug)",
    ["hc-ping", "healthchecks"],
    "[a-z0-9]{22}",
    HEALTHCHECKS,
  ),
  // Jackett's API key: `StringUtil.GenerateRandom(32)` when the configuration is built, 32 lower-case
  // letters and digits.
  named(
    "jackett-api-key",
    "Jackett",
    "API key",
    ["jackett"],
    "[a-z0-9]{32}",
    "https://github.com/Jackett/Jackett/blob/HEAD/src/Jackett.Common/Services/ConfigurationService.cs",
  ),
  // InvenTree API tokens: `inv-`, a Django REST framework key (20 random bytes in hexadecimal), `-`
  // and the creation date (YYYYMMDD).
  prefixed(
    "inventree-api-token",
    "InvenTree",
    "API token",
    "inv-",
    "inv-[a-f0-9]{40}-[0-9]{8}",
    "https://github.com/inventree/InvenTree/blob/HEAD/src/backend/InvenTree/users/models.py",
  ),
  // Hoppscotch personal access tokens: `pat-` and the token's UUID (Prisma `@default(uuid())`).
  prefixed(
    "hoppscotch-personal-access-token",
    "Hoppscotch",
    "personal access token",
    "pat-",
    `pat-${UUID}`,
    "https://github.com/hoppscotch/hoppscotch/blob/HEAD/packages/hoppscotch-backend/src/access-token/access-token.service.ts",
  ),
  // Jupyter Server's generated token: 24 random bytes in hexadecimal (48 characters).
  named(
    "jupyter-server-token",
    "Jupyter Server",
    "server token (generated when no password is set)",
    ["jupyter"],
    "[a-f0-9]{48}",
    "https://github.com/jupyter-server/jupyter_server/blob/HEAD/jupyter_server/auth/identity.py",
  ),
  // JupyterHub API tokens: `uuid4().hex`.
  named(
    "jupyterhub-api-token",
    "JupyterHub",
    "API token",
    ["jupyterhub"],
    HEX32,
    "https://github.com/jupyterhub/jupyterhub/blob/HEAD/jupyterhub/utils.py",
  ),
  // Jellyseerr's API key: the Base64 of the time in milliseconds (13 digits, so `MT…`) followed by a
  // UUID: 49 bytes, 68 characters ending in `==`.
  named(
    "jellyseerr-api-key",
    "Jellyseerr",
    "API key",
    ["jellyseerr"],
    "MT[A-Za-z0-9+/]{63}[AQgw]==",
    "https://github.com/Fallenbagel/jellyseerr/blob/HEAD/server/lib/settings/index.ts",
  ),
  // grocy API keys: `RandomString(50)`, 50 letters and digits.
  named(
    "grocy-api-key",
    "grocy",
    "API key",
    ["grocy"],
    alnum(50),
    "https://github.com/grocy/grocy/blob/HEAD/services/ApiKeyService.php",
  ),
  // HedgeDoc 2 API tokens: `hd2`, an 8-byte key id and a 64-byte secret, both unpadded base64url
  // (11 and 86 characters), joined by dots.
  prefixed(
    "hedgedoc-api-token",
    "HedgeDoc",
    "API token",
    "hd2.",
    String.raw`hd2\.[A-Za-z0-9_-]{11}\.[A-Za-z0-9_-]{86}`,
    "https://github.com/hedgedoc/hedgedoc/blob/HEAD/backend/src/api-token/api-token.service.ts",
  ),
  // Komodo API keys: the key `K_…_K` and the secret `S_…_S` around 40 random letters and digits
  // (short prefixes, so only after `komodo`).
  named("komodo-api-secret", "Komodo", "API secret", ["komodo"], "S_[A-Za-z0-9]{40}_S", KOMODO_API_KEY),
  named(
    "komodo-api-key",
    "Komodo",
    "API key (sent with its secret)",
    ["komodo"],
    "K_[A-Za-z0-9]{40}_K",
    KOMODO_API_KEY,
  ),
  // Homarr API keys: the key's cuid2 id (24 characters, a letter first), a dot and 24 random bytes
  // in hexadecimal.
  named(
    "homarr-api-key",
    "Homarr",
    "API key",
    ["homarr"],
    String.raw`[a-z][a-z0-9]{23}\.[a-f0-9]{48}`,
    "https://github.com/homarr-labs/homarr/blob/HEAD/packages/api/src/router/apiKeys.ts",
  ),
  // Invoice Ninja company API tokens: `Str::random(64)`, 64 letters and digits.
  named(
    "invoice-ninja-api-token",
    "Invoice Ninja",
    "company API token",
    ["invoiceninja", "invoice_ninja", "invoice-ninja"],
    alnum(64),
    "https://github.com/invoiceninja/invoiceninja/blob/HEAD/app/Factory/CompanyTokenFactory.php",
  ),
  // Kanboard's API token: `Token::getToken()`, 30 random bytes in hexadecimal (60 characters).
  named(
    "kanboard-api-token",
    "Kanboard",
    "API token",
    ["kanboard"],
    "[a-f0-9]{60}",
    "https://github.com/kanboard/kanboard/blob/HEAD/app/Core/Security/Token.php",
  ),
  // LNbits wallet keys (admin key and invoice/read key): `uuid4().hex`.
  named(
    "lnbits-wallet-key",
    "LNbits",
    "wallet admin or invoice key",
    ["lnbits"],
    HEX32,
    "https://github.com/lnbits/lnbits/blob/HEAD/lnbits/core/crud/wallets.py",
  ),
  // LibreNMS API tokens: 16 random bytes in hexadecimal.
  named(
    "librenms-api-token",
    "LibreNMS",
    "API token",
    ["librenms"],
    HEX32,
    "https://github.com/librenms/librenms/blob/HEAD/app/Models/ApiToken.php",
  ),
  // Lago API keys: `SecureRandom.uuid`.
  named(
    "lago-api-key",
    "Lago",
    "API key",
    ["lago"],
    UUID,
    "https://github.com/getlago/lago-api/blob/HEAD/app/models/api_key.rb",
  ),
  // Khoj API keys: `kk-` and `secrets.token_urlsafe(32)` (43 URL-safe characters).
  prefixed(
    "khoj-api-key",
    "Khoj",
    "API key",
    "kk-",
    "kk-[A-Za-z0-9_-]{43}",
    "https://github.com/khoj-ai/khoj/blob/HEAD/src/khoj/database/adapters/__init__.py",
  ),
  // Hoppscotch infra tokens (admin API): the token's UUID (Prisma `@default(uuid())`), without the
  // `pat-` of personal access tokens.
  named(
    "hoppscotch-infra-token",
    "Hoppscotch",
    "infra token (admin API)",
    ["hoppscotch"],
    UUID,
    "https://github.com/hoppscotch/hoppscotch/blob/HEAD/packages/hoppscotch-backend/src/infra-token/infra-token.service.ts",
  ),
  // Flipt client tokens (static token authentication): 32 random bytes in padded URL-safe Base64
  // (43 characters, the last carrying 4 bits, and `=`).
  named(
    "flipt-client-token",
    "Flipt",
    "client token (token authentication)",
    ["flipt"],
    "[A-Za-z0-9_-]{42}[AEIMQUYcgkosw048]=",
    "https://github.com/flipt-io/flipt/blob/HEAD/internal/storage/authn/auth.go",
  ),
  // Kutt API keys: `nanoid(40)`, 40 URL-safe characters.
  named(
    "kutt-api-key",
    "Kutt",
    "API key",
    ["kutt"],
    "[A-Za-z0-9_-]{40}",
    "https://github.com/thedevs-network/kutt/blob/HEAD/server/handlers/auth.handler.js",
  ),
  // LobeHub API keys: `sk-lh-` and 16 random lower-case letters and digits; later versions of the
  // same generator put 32 random bytes in unpadded base64url after it (43 characters).
  prefixed(
    "lobehub-api-key",
    "LobeHub",
    "API key",
    "sk-lh-",
    "sk-lh-(?:[A-Za-z0-9_-]{43}|[a-z0-9]{16})",
    "https://github.com/lobehub/lobehub/blob/HEAD/packages/utils/src/apiKey.ts",
  ),
  // Leantime API keys: `lt_`, a 32-character random user name and a 32-character random secret
  // (letters and digits), joined by `_` (a prefix too common to stand alone: only after `leantime`).
  named(
    "leantime-api-key",
    "Leantime",
    "API key",
    ["leantime"],
    "lt_[A-Za-z0-9]{32}_[A-Za-z0-9]{32}",
    "https://github.com/Leantime/leantime/blob/HEAD/app/Domain/Api/Services/Api.php",
  ),
  // Gokapi API keys: `GenerateRandomString(30)`, random bytes in base64url with `-` and `_`
  // removed, cut to 30 letters and digits.
  named(
    "gokapi-api-key",
    "Gokapi",
    "API key",
    ["gokapi"],
    alnum(30),
    "https://github.com/Forceu/Gokapi/blob/HEAD/internal/webserver/api/Api.go",
  ),
  // Fleet enroll secrets (hosts enroll with them): `GenerateRandomText(EnrollSecretDefaultLength)`,
  // 24 random bytes in standard Base64 (32 characters, no padding).
  named(
    "fleet-enroll-secret",
    "Fleet",
    "enroll secret",
    ["fleet", "fleetdm"],
    "[A-Za-z0-9+/]{32}",
    "https://github.com/fleetdm/fleet/blob/HEAD/server/fleet/app.go",
  ),
  // Frappe (ERPNext) API keys and secrets: `frappe.generate_hash(length=15)` each, 15 hexadecimal
  // characters, sent as `token <api_key>:<api_secret>`; the pair or the secret alone.
  named(
    "frappe-api-secret",
    "Frappe (ERPNext)",
    "API key and secret (token api_key:api_secret)",
    ["frappe", "erpnext"],
    "[a-f0-9]{15}(?::[a-f0-9]{15})?",
    "https://github.com/frappe/frappe/blob/HEAD/frappe/core/doctype/user/user.py",
  ),
  // Joomla API tokens (user token plugin): Base64 of `sha256:<user id>:<HMAC-SHA256 in hexadecimal>`,
  // so `c2hhMjU2Oj` and, for user ids of 1 to 10 digits, 88 to 100 more characters before padding.
  prefixed(
    "joomla-api-token",
    "Joomla",
    "API token",
    "c2hhMjU2Oj",
    "c2hhMjU2Oj[A-Za-z0-9+/]{88,100}={0,2}",
    "https://github.com/joomla/joomla-cms/blob/HEAD/plugins/user/token/src/Extension/Token.php",
  ),
  // lakeFS secret access keys: `Base64StringGenerator(30)`, 30 random bytes in standard Base64 (40
  // characters); the access key id beside it is `AKIAJ`, 14 base32 characters and `Q`.
  named(
    "lakefs-secret-access-key",
    "lakeFS",
    "secret access key",
    ["lakefs"],
    "[A-Za-z0-9+/]{40}",
    "https://github.com/treeverse/lakeFS/blob/HEAD/pkg/auth/keys/keys.go",
  ),
];
