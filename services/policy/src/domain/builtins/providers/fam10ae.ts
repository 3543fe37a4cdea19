// Providers A-E (fam10ae): hosted services from the format their own SDKs validate or their own
// documentation states, and self-hosted products from the token generator in their own official
// repository. Self-identifying tokens stand alone; generic shapes are reported only where the
// provider is named before them.
import type { ProviderFamily } from "../tokenRules.js";
import { HEX32, HEX40, HEX64, alnum, named, prefixed } from "./shapes.js";

export const FAM10AE_FAMILIES: ProviderFamily[] = [
  // Checkout.com's SDKs validate secret keys as sk_, sk_sbox_ in the sandbox, then 26 base32
  // characters and a last one that may also be *, #, $ or =.
  prefixed(
    "checkout-sandbox-secret-key",
    "Checkout.com",
    "sandbox secret API key (sk_sbox_)",
    "sk_sbox_",
    "sk_sbox_[a-z2-7]{26}[a-z2-7*#$=]",
    "https://github.com/checkout/checkout-sdk-java/blob/HEAD/src/main/java/com/checkout/StaticKeysSdkCredentials.java",
  ),
  // The live key's sk_ alone is shared with other providers' keys: reported after checkout.
  named(
    "checkout-secret-key",
    "Checkout.com",
    "secret API key (sk_, 27 base32 characters)",
    ["checkout"],
    "sk_[a-z2-7]{26}[a-z2-7*#$=]",
    "https://github.com/checkout/checkout-sdk-java/blob/HEAD/src/main/java/com/checkout/StaticKeysSdkCredentials.java",
  ),
  // Daytona: dtn_ and randomBytes(32) in hex.
  prefixed(
    "daytona-api-key",
    "Daytona",
    "API key (dtn_, 64 hexadecimal characters)",
    "dtn_",
    "dtn_[a-f0-9]{64}",
    "https://github.com/daytonaio/daytona/blob/b5a5d9e78d76c8bcf351f2049620250e0f34eea4/apps/api/src/common/utils/api-key.ts",
  ),
  // Dependency-Track: odt_, an 8-character public id, _ and a 32-character secret (letters and
  // digits); keys made before Alpine 3.2 are odt_ and the 32 characters alone.
  prefixed(
    "dependency-track-api-key",
    "OWASP Dependency-Track",
    "API key (odt_)",
    "odt_",
    "odt_(?:[A-Za-z0-9]{8}_)?[A-Za-z0-9]{32}",
    "https://github.com/DependencyTrack/dependency-track/blob/HEAD/alpine/alpine-infra/src/main/java/alpine/security/ApiKeyGenerator.java",
  ),
  // Cockpit CMS: API- and bin2hex(random_bytes(20)).
  named(
    "cockpit-cms-api-key",
    "Cockpit CMS",
    "API key (API- and 40 hexadecimal characters)",
    ["cockpit"],
    "API-[a-f0-9]{40}",
    "https://github.com/Cockpit-HQ/Cockpit/blob/HEAD/modules/App/Controller/Utils.php",
  ),
  named(
    "btcpay-server-api-key",
    "BTCPay Server",
    "Greenfield API key (20 random bytes in hex)",
    ["btcpay"],
    HEX40,
    "https://github.com/btcpayserver/btcpayserver/blob/HEAD/BTCPayServer/Controllers/GreenField/GreenfieldApiKeysController.cs",
  ),
  // Elasticsearch service account tokens: base64 (no padding) of the bytes 0 1 0 1 and
  // "elastic/<service>/<token name>:<22-character secret>", so every one starts AAEAAWVsYXN0aWMv.
  prefixed(
    "elasticsearch-service-account-token",
    "Elasticsearch",
    "service account token (bearer)",
    "AAEAAWVsYXN0aWMv",
    "AAEAAWVsYXN0aWMv[A-Za-z0-9+/]{40,420}",
    "https://github.com/elastic/elasticsearch/blob/HEAD/x-pack/plugin/core/src/main/java/org/elasticsearch/xpack/core/security/authc/service/ServiceAccountToken.java",
  ),
  // Elasticsearch API keys as sent (`Authorization: ApiKey`): base64 of "<20-character id>:<22-
  // character key>", 43 bytes, so the 28th character encodes the colon (6) and the value ends ==.
  named(
    "elasticsearch-api-key",
    "Elasticsearch",
    "API key (encoded id:api_key)",
    ["elasticsearch"],
    "[A-Za-z0-9+/]{26}[AEIMQUYcgkosw048]6[A-Za-z0-9+/]{29}[AQgw]==",
    "https://www.elastic.co/guide/en/elasticsearch/reference/current/security-api-create-api-key.html",
  ),
  // ClearML server: secret keys are secrets.token_urlsafe(50), never starting with - or _.
  named(
    "clearml-secret-key",
    "ClearML",
    "API secret key (token_urlsafe(50))",
    ["clearml"],
    "[A-Za-z0-9][A-Za-z0-9_-]{66}",
    "https://github.com/allegroai/clearml-server/blob/HEAD/apiserver/service_repo/auth/utils.py",
  ),
  // deSEC: 28 characters of a 58-letter alphabet (no 0, O, I or l).
  named(
    "desec-api-token",
    "deSEC",
    "API token (28 base58 characters)",
    ["desec"],
    "[1-9A-HJ-NP-Za-km-z]{28}",
    "https://github.com/desec-io/desec-stack/blob/HEAD/api/desecapi/models/tokens.py",
  ),
  named(
    "casdoor-client-secret",
    "Casdoor",
    "application client secret (20 random bytes in hex)",
    ["casdoor"],
    HEX40,
    "https://github.com/casdoor/casdoor/blob/HEAD/util/random.go",
  ),
  // Agenta: an 8-character prefix, a dot and secrets.token_hex(32).
  named(
    "agenta-api-key",
    "Agenta",
    "API key (8-character prefix, a dot, 64 hexadecimal characters)",
    ["agenta"],
    String.raw`[A-Za-z0-9]{8}\.[a-f0-9]{64}`,
    "https://github.com/Agenta-AI/agenta/blob/HEAD/api/oss/src/services/api_key_service.py",
  ),
  named(
    "automatisch-api-token",
    "Automatisch",
    "API token (randomBytes(48) in hex)",
    ["automatisch"],
    "[a-f0-9]{96}",
    "https://github.com/automatisch/automatisch/blob/HEAD/packages/backend/src/models/api-token.ee.js",
  ),
  // Artifact Hub: the X-API-KEY-SECRET is 32 random bytes in padded base64.
  named(
    "artifacthub-api-key-secret",
    "Artifact Hub",
    "API key secret (32 random bytes in base64)",
    ["artifacthub", "x-api-key-secret"],
    "[A-Za-z0-9+/]{43}=",
    "https://github.com/artifacthub/hub/blob/HEAD/internal/apikey/manager.go",
  ),
  named(
    "dittofeed-admin-api-key",
    "Dittofeed",
    "admin API key (randomBytes(32) in hex)",
    ["dittofeed"],
    HEX64,
    "https://github.com/dittofeed/dittofeed/blob/HEAD/packages/backend-lib/src/adminApiKeys.ts",
  ),
  named(
    "ampache-api-key",
    "Ampache",
    "user API key (an MD5 in hex)",
    ["ampache"],
    HEX32,
    "https://github.com/ampache/ampache/blob/HEAD/src/Module/User/Authorization/UserKeyGenerator.php",
  ),
  // Coolify: `<token id>|`, Str::random(40) and the CRC32 of those 40 characters in hex.
  named(
    "coolify-api-token",
    "Coolify",
    "API token (id|, 40 letters and digits, CRC32)",
    ["coolify"],
    String.raw`[0-9]{1,10}\|[A-Za-z0-9]{40}[a-f0-9]{8}`,
    "https://github.com/coollabsio/coolify/blob/HEAD/app/Models/User.php",
  ),
  named(
    "devlake-api-key",
    "Apache DevLake",
    "API key (128 letters and digits)",
    ["devlake"],
    alnum(128),
    "https://github.com/apache/incubator-devlake/blob/HEAD/backend/helpers/apikeyhelper/apikeyhelper.go",
  ),
  named(
    "cross-seed-api-key",
    "cross-seed",
    "API key (randomBytes(24) in hex)",
    ["cross-seed", "cross_seed", "crossseed"],
    "[a-f0-9]{48}",
    "https://github.com/cross-seed/cross-seed/blob/HEAD/packages/cross-seed/src/auth.ts",
  ),
  // Campfire (ONCE): a bot's key is its user id, - and SecureRandom.alphanumeric(12).
  named(
    "campfire-bot-key",
    "Campfire",
    "bot key (id-, 12 letters and digits)",
    ["campfire"],
    "[0-9]{1,10}-[A-Za-z0-9]{12}",
    "https://github.com/basecamp/once-campfire/blob/HEAD/app/models/user/bot.rb",
  ),
  // CrowdSec: bouncer API keys are 32 random bytes in base64 with the padding cut.
  named(
    "crowdsec-bouncer-api-key",
    "CrowdSec",
    "bouncer API key (32 random bytes in base64)",
    ["crowdsec"],
    "[A-Za-z0-9+/]{43}",
    "https://github.com/crowdsecurity/crowdsec/blob/HEAD/pkg/apiserver/middlewares/v1/api_key.go",
  ),
  named(
    "bugsink-auth-token",
    "Bugsink",
    "auth token (secrets.token_hex(20))",
    ["bugsink"],
    HEX40,
    "https://github.com/bugsink/bugsink/blob/HEAD/bsmain/models.py",
  ),
  // Bitwarden's personal and organization API keys: client_secret, 30 letters and digits.
  named(
    "bitwarden-api-key-client-secret",
    "Bitwarden",
    "personal or organization API key client_secret (30 letters and digits)",
    ["bitwarden", "bw_clientsecret"],
    alnum(30),
    "https://github.com/bitwarden/server/blob/HEAD/src/Core/Auth/UserFeatures/Registration/Implementations/RegisterUserCommand.cs",
  ),
  named(
    "dolphinscheduler-access-token",
    "Apache DolphinScheduler",
    "API access token (an MD5 in hex)",
    ["dolphinscheduler"],
    HEX32,
    "https://github.com/apache/dolphinscheduler/blob/HEAD/dolphinscheduler-api/src/main/java/org/apache/dolphinscheduler/api/service/impl/AccessTokenServiceImpl.java",
  ),
  // Exceptionless: project API keys (tokens) are 40 letters and digits (GetNewToken).
  named(
    "exceptionless-api-key",
    "Exceptionless",
    "API key (40 letters and digits)",
    ["exceptionless"],
    alnum(40),
    "https://github.com/exceptionless/Exceptionless/blob/HEAD/src/Exceptionless.Web/Api/Handlers/TokenHandler.cs",
  ),
  named(
    "errbit-api-key",
    "Errbit",
    "app API key (SecureRandom.hex)",
    ["errbit"],
    HEX32,
    "https://github.com/errbit/errbit/blob/HEAD/app/models/app.rb",
  ),
  // DFIR-IRIS: secrets.token_urlsafe(64).
  named(
    "dfir-iris-api-key",
    "DFIR-IRIS",
    "API key (token_urlsafe(64))",
    ["dfir-iris", "dfir_iris", "iris_api_key", "iris_adm_api_key"],
    "[A-Za-z0-9_-]{86}",
    "https://github.com/dfir-iris/iris-web/blob/HEAD/source/app/blueprints/profile/profile_routes.py",
  ),
  // Cortex (TheHive Project): 24 random bytes in base64.
  named(
    "cortex-api-key",
    "Cortex (TheHive Project)",
    "API key (24 random bytes in base64)",
    ["cortex"],
    "[A-Za-z0-9+/]{32}",
    "https://github.com/TheHive-Project/Cortex/blob/HEAD/app/org/thp/cortex/services/KeyAuthSrv.scala",
  ),
  // Coroot: project API keys are nanoid(32).
  named(
    "coroot-api-key",
    "Coroot",
    "project API key (nanoid, 32 characters)",
    ["coroot"],
    "[A-Za-z0-9_-]{32}",
    "https://github.com/coroot/coroot/blob/HEAD/db/project.go",
  ),
  // Chevereto v4: chv_, the encoded key id, _ and randomString(128) (hexadecimal).
  prefixed(
    "chevereto-api-key",
    "Chevereto",
    "API key (chv_, key id, 128 hexadecimal characters)",
    "chv_",
    "chv_[A-Za-z0-9]{1,12}_[a-f0-9]{128}",
    "https://github.com/chevereto/chevereto/blob/HEAD/app/src/Legacy/Classes/ApiKey.php",
  ),
  // AList: alist-, a UUID and 64 letters and digits.
  prefixed(
    "alist-token",
    "AList",
    "admin token (alist-, a UUID, 64 letters and digits)",
    "alist-",
    "alist-[a-f0-9]{8}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{4}-[a-f0-9]{12}[A-Za-z0-9]{64}",
    "https://github.com/AlistGo/alist/blob/HEAD/pkg/utils/random/random.go",
  ),
  // Datasette: dstok_ and an itsdangerous URL-safe signed payload (a leading . when compressed,
  // then the base64url JSON, . and a 27-character HMAC-SHA1 signature).
  prefixed(
    "datasette-api-token",
    "Datasette",
    "signed API token (dstok_)",
    "dstok_",
    String.raw`dstok_\.?[A-Za-z0-9_-]{20,}\.[A-Za-z0-9_-]{27}`,
    "https://github.com/simonw/datasette/blob/HEAD/datasette/tokens.py",
  ),
  // Convoy: CO, ., a 16-character mask id, . and 64 letters and digits; CO. alone is too common
  // a text to search for, so the key is reported after convoy.
  named(
    "convoy-api-key",
    "Convoy",
    "API key (CO., mask id, 64 letters and digits)",
    ["convoy"],
    String.raw`CO\.[A-Za-z0-9]{16}\.[A-Za-z0-9]{64}`,
    "https://github.com/frain-dev/convoy/blob/HEAD/util/crypto.go",
  ),
  // EdgeDB (Gel) secret keys: edbt_ or nbwt_ (edbt1_, nbwt1_ for version-1 claims) and a signed JWT.
  {
    id: "edgedb-secret-key",
    provider: "EdgeDB (Gel)",
    secret: "secret key (edbt_ or nbwt_ and a JWT)",
    prefix: ["edbt_", "edbt1_", "nbwt_", "nbwt1_"],
    token: String.raw`(?:edbt|nbwt)1?_eyJ[A-Za-z0-9_-]+\.eyJ[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+`,
    docs: "https://github.com/edgedb/edgedb/blob/HEAD/edb/server/protocol/auth_helpers.pyx",
  },
  // Bitcart: API tokens are secrets.token_urlsafe() (32 bytes).
  named(
    "bitcart-api-token",
    "Bitcart",
    "API token (token_urlsafe(), 43 characters)",
    ["bitcart"],
    "[A-Za-z0-9_-]{43}",
    "https://github.com/bitcart/bitcart/blob/HEAD/api/models.py",
  ),
  // Atuin sync server: session tokens are 24 random bytes in unpadded base64url.
  named(
    "atuin-session-token",
    "Atuin",
    "sync server session token (24 random bytes, base64url)",
    ["atuin"],
    "[A-Za-z0-9_-]{32}",
    "https://github.com/atuinsh/atuin/blob/HEAD/crates/atuin-server/src/handlers/user.rs",
  ),
  // dotenvx: DOTENV_PRIVATE_KEY is a secp256k1 private key, 32 bytes in hex, that decrypts the
  // encrypted .env values.
  named(
    "dotenvx-private-key",
    "dotenvx",
    "DOTENV_PRIVATE_KEY (secp256k1 private key in hex)",
    ["dotenv_private_key", "dotenvx"],
    HEX64,
    "https://github.com/dotenvx/dotenvx/blob/HEAD/README.md",
  ),
  // Cloudlog: API keys are uniqid("cl"), cl and 13 hexadecimal characters.
  named(
    "cloudlog-api-key",
    "Cloudlog",
    "API key (cl and 13 hexadecimal characters)",
    ["cloudlog"],
    "cl[a-f0-9]{13}",
    "https://github.com/magicbug/Cloudlog/blob/HEAD/application/models/Api_model.php",
  ),
  // Activepieces: platform API keys are sk- and 61 letters and digits; sk- alone is shared with
  // other providers' keys, so the key is reported after activepieces.
  named(
    "activepieces-api-key",
    "Activepieces",
    "platform API key (sk- and 61 letters and digits)",
    ["activepieces"],
    "sk-[A-Za-z0-9]{61}",
    "https://github.com/activepieces/activepieces/blob/HEAD/packages/server/api/src/app/ee/api-keys/api-key-service.ts",
  ),
  // Dolibarr: the user's API key (DOLAPIKEY) is getRandomPassword(true), 32 letters and digits.
  named(
    "dolibarr-api-key",
    "Dolibarr",
    "user API key (DOLAPIKEY, 32 letters and digits)",
    ["dolibarr", "dolapikey"],
    alnum(32),
    "https://github.com/Dolibarr/dolibarr/blob/HEAD/htdocs/core/lib/security2.lib.php",
  ),
  named(
    "countly-api-key",
    "Countly",
    "user API key (an MD5 in hex)",
    ["countly"],
    HEX32,
    "https://github.com/Countly/countly-server/blob/HEAD/api/parts/mgmt/users.js",
  ),
  // AutoGPT platform: agpt_ and secrets.token_urlsafe(32). The editor also names fields agpt_…:
  // letters and separators alone after the prefix are such a name, not a key.
  {
    ...prefixed(
      "autogpt-platform-api-key",
      "AutoGPT Platform",
      "API key (agpt_ and token_urlsafe(32))",
      "agpt_",
      "agpt_[A-Za-z0-9_-]{43}",
      "https://github.com/Significant-Gravitas/AutoGPT/blob/HEAD/autogpt_platform/autogpt_libs/autogpt_libs/api_key/keysmith.py",
    ),
    options: { allowlist: ["^agpt_[A-Za-z_-]+$"] },
  },
  // Dust: sk- and 32 hexadecimal characters (a BLAKE3 of a UUID); sk- alone is shared with other
  // providers' keys, so the key is reported after dust.
  named(
    "dust-api-key",
    "Dust",
    "workspace API key (sk- and 32 hexadecimal characters)",
    ["dust"],
    "sk-[a-f0-9]{32}",
    "https://github.com/dust-tt/dust/blob/HEAD/front/lib/resources/key_resource.ts",
  ),
  // Blynk: device auth tokens are 24 random bytes in base64url (BLYNK_AUTH_TOKEN in sketches).
  named(
    "blynk-auth-token",
    "Blynk",
    "device auth token (24 random bytes, base64url)",
    ["blynk"],
    "[A-Za-z0-9_-]{32}",
    "https://github.com/blynkkk/blynk-server/blob/HEAD/server/utils/src/main/java/cc/blynk/utils/TokenGeneratorUtil.java",
  ),
  // Emoncms: read and write API keys are generate_secure_key(16), 16 random bytes in hex.
  named(
    "emoncms-api-key",
    "Emoncms",
    "read or write API key (16 random bytes in hex)",
    ["emoncms"],
    HEX32,
    "https://github.com/emoncms/emoncms/blob/HEAD/Modules/user/user_model.php",
  ),
  // chibisafe: API keys are randomstring.generate(64), 64 letters and digits.
  named(
    "chibisafe-api-key",
    "chibisafe",
    "API key (64 letters and digits)",
    ["chibisafe"],
    alnum(64),
    "https://github.com/chibisafe/chibisafe/blob/HEAD/packages/backend/src/routes/auth/GenerateApiKey.ts",
  ),
];
