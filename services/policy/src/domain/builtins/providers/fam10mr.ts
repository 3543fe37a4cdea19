// Providers M-R (fam10mr), each from the code that generates the token in the provider's own
// official repository. Self-identifying tokens stand alone; generic shapes are reported only where
// the provider is named before them.
import type { ProviderFamily } from "../tokenRules.js";
import { HEX32, named, prefixed, UUID } from "./shapes.js";

// Matrix Authentication Service (`TokenType::generate`): a three-letter prefix per token type,
// `_`, 30 letters and digits, `_`, and the CRC-32 of what comes before in 6 base62 digits.
const MAS_TOKENS =
  "https://github.com/element-hq/matrix-authentication-service/blob/HEAD/crates/data-model/src/tokens.rs";
const masToken = (id: string, secret: string, prefix: string): ProviderFamily =>
  prefixed(
    id,
    "Matrix Authentication Service",
    secret,
    `${prefix}_`,
    `${prefix}_[A-Za-z0-9]{30}_[0-9A-Za-z]{6}`,
    MAS_TOKENS,
  );

const PHOTOPRISM_AUTH = "https://github.com/photoprism/photoprism/blob/HEAD/pkg/rnd/auth.go";
const MINIO_CREDENTIALS = "https://github.com/minio/minio/blob/HEAD/internal/auth/credentials.go";

const RILL_TOKENS = "https://github.com/rilldata/rill/blob/HEAD/admin/pkg/authtoken/authtoken.go";
const rillToken = (id: string, secret: string, type: string): ProviderFamily =>
  prefixed(id, "Rill", secret, `rill_${type}_`, `rill_${type}_[0-9A-Za-z]{50,54}`, RILL_TOKENS);

export const FAM10MR_FAMILIES: ProviderFamily[] = [
  masToken("matrix-authentication-service-access-token", "OAuth 2.0 access token (`mat_`, base62 CRC-32)", "mat"),
  masToken("matrix-authentication-service-refresh-token", "OAuth 2.0 refresh token (`mar_`, base62 CRC-32)", "mar"),
  masToken(
    "matrix-authentication-service-compat-access-token",
    "compatibility (legacy Matrix API) access token (`mct_`, base62 CRC-32)",
    "mct",
  ),
  masToken(
    "matrix-authentication-service-compat-refresh-token",
    "compatibility (legacy Matrix API) refresh token (`mcr_`, base62 CRC-32)",
    "mcr",
  ),
  masToken(
    "matrix-authentication-service-personal-access-token",
    "personal access token (`mpt_`, base62 CRC-32)",
    "mpt",
  ),
  named(
    "rundeck-api-token",
    "Rundeck",
    "API token or webhook authorization secret (32 letters and digits)",
    ["rundeck"],
    "[A-Za-z0-9]{32}",
    "https://github.com/rundeck/rundeck/blob/HEAD/grails-rundeck-data-shared/src/main/groovy/rundeck/data/util/AuthenticationTokenUtils.groovy",
  ),
  // PhotoPrism app passwords: 27 characters, a `-` after every 6, the last a CRC-32 check character.
  named(
    "photoprism-app-password",
    "PhotoPrism",
    "app password (four dash-separated groups of 6 base62 characters, the last one a check character)",
    ["photoprism"],
    "[A-Za-z0-9]{6}-[A-Za-z0-9]{6}-[A-Za-z0-9]{6}-[A-Za-z0-9]{6}",
    PHOTOPRISM_AUTH,
  ),
  named(
    "photoprism-access-token",
    "PhotoPrism",
    "client access token (24 random bytes in hexadecimal)",
    ["photoprism"],
    "[a-f0-9]{48}",
    PHOTOPRISM_AUTH,
  ),
  named(
    "photoprism-client-secret",
    "PhotoPrism",
    "OAuth client secret (32 base62 characters)",
    ["photoprism"],
    "[A-Za-z0-9]{32}",
    "https://github.com/photoprism/photoprism/blob/HEAD/pkg/rnd/client.go",
  ),
  named(
    "mailcow-api-key",
    "mailcow",
    "API key (five dash-separated groups of 3 random bytes in upper-case hexadecimal)",
    ["mailcow"],
    "[A-F0-9]{6}-[A-F0-9]{6}-[A-F0-9]{6}-[A-F0-9]{6}-[A-F0-9]{6}",
    "https://github.com/mailcow/mailcow-dockerized/blob/HEAD/data/web/inc/functions.inc.php",
  ),
  named(
    "misp-auth-key",
    "MISP",
    "automation API auth key (`RandomTool::random_str(true, 40)`: 40 letters and digits)",
    ["misp"],
    "[A-Za-z0-9]{40}",
    "https://github.com/MISP/MISP/blob/HEAD/app/Model/AuthKey.php",
  ),
  named(
    "opnsense-api-key",
    "OPNsense",
    "API key or secret (60 random bytes in base64: 80 characters)",
    ["opnsense"],
    "[A-Za-z0-9][A-Za-z0-9+/]{79}",
    "https://github.com/opnsense/core/blob/HEAD/src/opnsense/mvc/app/models/OPNsense/Auth/FieldTypes/ApiKeyField.php",
  ),
  prefixed(
    "ragflow-api-key",
    "RAGFlow",
    "API key (`ragflow-` and `secrets.token_urlsafe(32)`: 43 URL-safe base64 characters)",
    "ragflow-",
    "ragflow-[A-Za-z0-9_-]{43}",
    "https://github.com/infiniflow/ragflow/blob/HEAD/api/utils/api_utils.py",
  ),
  named(
    "osticket-api-key",
    "osTicket",
    "API key (an MD5 digest in upper-case hexadecimal)",
    ["osticket"],
    "[A-F0-9]{32}",
    "https://github.com/osTicket/osTicket/blob/HEAD/include/class.api.php",
  ),
  named(
    "mantisbt-api-token",
    "MantisBT",
    "API token (32 URL-safe base64 characters)",
    ["mantisbt", "mantis"],
    "[A-Za-z0-9_-]{32}",
    "https://github.com/mantisbt/mantisbt/blob/HEAD/core/api_token_api.php",
  ),
  // Conduit tokens: the type (`api` standard, `cli` command line, `clr` cluster), `-`, and 32
  // characters of Filesystem::readRandomCharacters() (a-z and 2-7).
  named(
    "phabricator-conduit-api-token",
    "Phabricator (Phorge)",
    "Conduit API token (`api-`, `cli-` or `clr-` and 32 characters of a-z and 2-7)",
    ["phabricator", "phorge", "conduit"],
    "(?:api|cli|clr)-[a-z2-7]{32}",
    "https://github.com/phacility/phabricator/blob/HEAD/src/applications/conduit/storage/PhabricatorConduitToken.php",
  ),
  named(
    "magento-integration-token",
    "Magento (Adobe Commerce)",
    "integration access token, token secret, consumer key or consumer secret (32 lower-case letters and digits)",
    ["magento"],
    "[a-z0-9]{32}",
    "https://github.com/magento/magento2/blob/HEAD/lib/internal/Magento/Framework/Oauth/Helper/Oauth.php",
  ),
  named(
    "mylar-api-key",
    "Mylar3",
    "API key (the first 32 hexadecimal characters of a SHA-256 digest)",
    ["mylar"],
    HEX32,
    "https://github.com/mylar3/mylar3/blob/HEAD/mylar/webserve.py",
  ),
  named(
    "nzbhydra-api-key",
    "NZBHydra 2",
    "API key (130 random bits in upper-case base 32: 26 characters, fewer when the leading digits are zero)",
    ["nzbhydra"],
    "[0-9A-V]{24,26}",
    "https://github.com/theotherp/nzbhydra2/blob/HEAD/core/src/main/java/org/nzbhydra/config/validation/MainConfigValidator.java",
  ),
  named(
    "pocket-id-api-key",
    "Pocket ID",
    "API key (32 letters and digits)",
    ["pocket-id", "pocket_id", "pocketid"],
    "[A-Za-z0-9]{32}",
    "https://github.com/pocket-id/pocket-id/blob/HEAD/backend/internal/apikey/service.go",
  ),
  named(
    "onedev-access-token",
    "OneDev",
    "access token (`CryptoUtils.generateSecret()`: 40 letters and digits)",
    ["onedev"],
    "[A-Za-z0-9]{40}",
    "https://github.com/theonedev/onedev/blob/HEAD/server-core/src/main/java/io/onedev/server/util/CryptoUtils.java",
  ),
  named(
    "minio-access-key",
    "MinIO",
    "generated access key (20 upper-case letters and digits)",
    ["minio"],
    "[A-Z0-9]{20}",
    MINIO_CREDENTIALS,
  ),
  named(
    "minio-secret-key",
    "MinIO",
    "generated secret key (30 random bytes in base64 with `+` for `/`: 40 characters)",
    ["minio"],
    "[A-Za-z0-9][A-Za-z0-9+]{39}",
    MINIO_CREDENTIALS,
  ),
  named(
    "revolt-bot-token",
    "Revolt",
    "bot or webhook token (`nanoid!(64)`: 64 URL-safe characters)",
    ["revolt"],
    "[A-Za-z0-9_-]{64}",
    "https://github.com/revoltchat/backend/blob/HEAD/crates/core/database/src/models/bots/model.rs",
  ),
  named(
    "powerdns-admin-api-key",
    "PowerDNS-Admin",
    "API key (15 random letters and digits, handed out in base64: 20 characters)",
    ["powerdns", "pdns"],
    "[A-Za-z0-9+/]{20}",
    "https://github.com/PowerDNS-Admin/PowerDNS-Admin/blob/HEAD/powerdnsadmin/models/api_key.py",
  ),
  named(
    "nocodb-api-token",
    "NocoDB",
    "API token (`xc-token`, `nanoid(40)`: 40 URL-safe characters)",
    ["nocodb", "xc-token"],
    "[A-Za-z0-9_-]{40}",
    "https://github.com/nocodb/nocodb/blob/HEAD/packages/nocodb/src/models/ApiToken.ts",
  ),
  named(
    "opencti-api-token",
    "OpenCTI",
    "user API token (a random UUID)",
    ["opencti"],
    UUID,
    "https://github.com/OpenCTI-Platform/opencti/blob/HEAD/opencti-platform/opencti-graphql/src/domain/user.js",
  ),
  named(
    "owncast-access-token",
    "Owncast",
    "external API user access token (32 random bytes in URL-safe base64 with padding)",
    ["owncast"],
    "[A-Za-z0-9_-]{43}=",
    "https://github.com/owncast/owncast/blob/HEAD/utils/accessTokens.go",
  ),
  // Rill: `rill_`, the token type, `_`, and the token's UUID and 24 random bytes as one base62
  // number (54 characters, fewer when its leading digits are zero).
  rillToken("rill-user-token", "user access token (`rill_usr_`)", "usr"),
  rillToken("rill-service-token", "service token (`rill_svc_`)", "svc"),
  rillToken("rill-deployment-token", "deployment token (`rill_dpl_`)", "dpl"),
  rillToken("rill-magic-token", "magic (shareable link) token (`rill_mgc_`)", "mgc"),
  named(
    "maxkb-application-api-key",
    "MaxKB",
    "application API key (`application-` and an MD5 digest in hexadecimal)",
    ["maxkb"],
    "application-[a-f0-9]{32}",
    "https://github.com/1Panel-dev/MaxKB/blob/HEAD/apps/application/serializers/application_api_key.py",
  ),
  named(
    "rauthy-api-key",
    "Rauthy",
    "API key (`API-Key` header: the key's name, `$`, and 64 random letters and digits)",
    ["rauthy"],
    String.raw`[A-Za-z0-9_/-]{2,24}\$[A-Za-z0-9]{64}`,
    "https://github.com/sebadob/rauthy/blob/HEAD/src/data/src/entity/api_keys.rs",
  ),
  named(
    "reposilite-access-token",
    "Reposilite",
    "access token secret (48 random bytes in base64: 64 characters)",
    ["reposilite"],
    "[A-Za-z0-9][A-Za-z0-9+/]{63}",
    "https://github.com/dzikoysk/reposilite/blob/HEAD/reposilite-backend/src/main/kotlin/com/reposilite/token/AccessTokenSecurityProvider.kt",
  ),
  named(
    "openpanel-client-secret",
    "OpenPanel",
    "client secret (`sec_` and 10 random bytes in hexadecimal)",
    ["openpanel"],
    "sec_[a-f0-9]{20}",
    "https://github.com/Openpanel-dev/openpanel/blob/HEAD/packages/trpc/src/routers/client.ts",
  ),
  prefixed(
    "pezzo-api-key",
    "Pezzo",
    "API key (`pez_` and 16 random bytes in hexadecimal)",
    "pez_",
    "pez_[a-f0-9]{32}",
    "https://github.com/pezzolabs/pezzo/blob/HEAD/apps/server/src/app/identity/users.service.ts",
  ),
  named(
    "rybbit-api-key",
    "Rybbit",
    "site API key (`rb_` and 16 random bytes in hexadecimal)",
    ["rybbit"],
    "rb_[a-f0-9]{32}",
    "https://github.com/rybbit-io/rybbit/blob/HEAD/server/src/api/sites/updateSiteApiConfig.ts",
  ),
  named(
    "pritunl-api-token",
    "Pritunl",
    "administrator API token or secret (`generate_secret()`: 32 letters and digits)",
    ["pritunl"],
    "[A-Za-z0-9]{32}",
    "https://github.com/pritunl/pritunl/blob/HEAD/pritunl/utils/misc.py",
  ),
];
