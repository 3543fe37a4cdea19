// Providers A-F (fam9af): hosted services from their own documentation of the token format, and
// self-hosted products from the token generator in their own official repository. Self-identifying
// tokens stand alone; generic shapes are reported only where the provider is named before them.
import type { ProviderFamily } from "../tokenRules.js";
import { HEX32, HEX64, alnum, lettersAfter, named, prefixed } from "./shapes.js";

export const FAM9AF_FAMILIES: ProviderFamily[] = [
  // Login with Amazon: access tokens start with Atza|, refresh tokens with Atzr| ("the same format
  // as access tokens"): 350 characters or more, at most 2048 bytes.
  prefixed(
    "amazon-lwa-access-token",
    "Login with Amazon",
    "access token (Atza|, 350 to 2048 characters)",
    "Atza|",
    String.raw`Atza\|[A-Za-z0-9_-]{345,}`,
    "https://developer.amazon.com/docs/login-with-amazon/access-token.html",
  ),
  prefixed(
    "amazon-lwa-refresh-token",
    "Login with Amazon",
    "refresh token (Atzr|, the access tokens' format)",
    "Atzr|",
    String.raw`Atzr\|[A-Za-z0-9_-]{345,}`,
    "https://developer.amazon.com/docs/login-with-amazon/refresh-token.html",
  ),
  // Circle's header examples: TEST_API_KEY or LIVE_API_KEY, a 32-character id and a 32-character
  // secret, colon-separated (both examples agree).
  {
    id: "circle-api-key",
    provider: "Circle",
    secret: "API key (TEST_API_KEY or LIVE_API_KEY, a key id and a secret)",
    prefix: ["TEST_API_KEY:", "LIVE_API_KEY:"],
    token: "(?:TEST|LIVE)_API_KEY:[a-f0-9]{32}:[a-f0-9]{32}",
    docs: "https://developers.circle.com/w3s/docs/web3-services-api-keys-authentication",
  },
  // Cal.com: randomBytes(16) in hex after API_KEY_PREFIX (cal_ by default; cal_live_ on the
  // hosted service).
  prefixed(
    "calcom-api-key",
    "Cal.com",
    "API key (cal_ or cal_live_, 32 hexadecimal characters)",
    "cal_",
    "cal_(?:live_)?[a-f0-9]{32}",
    "https://github.com/calcom/cal.com/blob/HEAD/packages/trpc/server/routers/viewer/apiKeys/create.handler.ts",
  ),
  // Formbricks v2 API keys: fbk_ and randomBytes(32) in base64url.
  prefixed(
    "formbricks-api-key",
    "Formbricks",
    "organization API key (fbk_, v2 format)",
    "fbk_",
    "fbk_[A-Za-z0-9_-]{43}",
    "https://github.com/formbricks/formbricks/blob/HEAD/apps/web/modules/organization/settings/api-keys/lib/api-key.ts",
  ),
  named(
    "flarum-api-key",
    "Flarum",
    "API key or access token (Str::random(40))",
    ["flarum"],
    alnum(40),
    "https://github.com/flarum/framework/blob/HEAD/framework/core/src/Api/ApiKey.php",
  ),
  named(
    "bugzilla-api-key",
    "Bugzilla",
    "API key (40 letters and digits)",
    ["bugzilla"],
    alnum(40),
    "https://github.com/bugzilla/bugzilla/blob/HEAD/Bugzilla/User/APIKey.pm",
  ),
  // BookStack: `Authorization: Token <token_id>:<token_secret>`, each Str::random(32).
  named(
    "bookstack-api-token",
    "BookStack",
    "API token secret or id (Str::random(32) each)",
    ["bookstack"],
    alnum(32),
    "https://github.com/BookStackApp/BookStack/blob/HEAD/app/Api/UserApiTokenController.php",
  ),
  named(
    "documenso-api-token",
    "Documenso",
    "API token (api_ and 16 lower-case letters and digits)",
    ["documenso"],
    "api_[a-z0-9]{16}",
    "https://github.com/documenso/documenso/blob/HEAD/packages/lib/server-only/public-api/create-api-token.ts",
  ),
  named(
    "etherpad-api-key",
    "Etherpad",
    "HTTP API key (APIKEY.txt, randomBytes(32) in hex)",
    ["etherpad"],
    HEX64,
    "https://github.com/ether/etherpad-lite/blob/HEAD/src/node/handler/APIKeyHandler.ts",
  ),
  named(
    "bazarr-api-key",
    "Bazarr",
    "API key (os.urandom(16) in hex)",
    ["bazarr"],
    HEX32,
    "https://github.com/morpheus65535/bazarr/blob/HEAD/bazarr/app/config.py",
  ),
  named(
    "flowise-api-key",
    "Flowise",
    "API key (randomBytes(32) in base64url)",
    ["flowise"],
    "[A-Za-z0-9_-]{43}",
    "https://github.com/FlowiseAI/Flowise/blob/HEAD/packages/server/src/utils/apiKey.ts",
  ),
  // Apache Answer: sk_ and a version-7 UUID without its dashes.
  named(
    "apache-answer-api-key",
    "Apache Answer",
    "admin API key (sk_ and a UUIDv7 in hexadecimal)",
    ["answer"],
    "sk_[a-f0-9]{12}7[a-f0-9]{3}[89ab][a-f0-9]{15}",
    "https://github.com/apache/answer/blob/HEAD/internal/service/apikey/apikey_service.go",
  ),
  // Chatwoot: Rails has_secure_token, 24 base58 characters.
  named(
    "chatwoot-access-token",
    "Chatwoot",
    "user or agent bot access token (api_access_token)",
    ["chatwoot"],
    "[1-9A-HJ-NP-Za-km-z]{24}",
    "https://github.com/chatwoot/chatwoot/blob/HEAD/app/models/access_token.rb",
  ),
  // authentik: generate_id(default_token_length), 60 letters and digits by default.
  named(
    "authentik-api-token",
    "authentik",
    "API token key (60 letters and digits by default)",
    ["authentik"],
    alnum(60),
    "https://github.com/goauthentik/authentik/blob/HEAD/authentik/core/models.py",
  ),
  // AzuraCast split tokens: `<identifier>:<verifier>`, 16 and 32 characters of a SHA-256 hex digest
  // of random_bytes(32).
  named(
    "azuracast-api-key",
    "AzuraCast",
    "API key (identifier and verifier, hexadecimal)",
    ["azuracast"],
    "[a-f0-9]{16}:[a-f0-9]{32}",
    "https://github.com/AzuraCast/AzuraCast/blob/HEAD/backend/src/Security/SplitToken.php",
  ),
  named(
    "espocrm-api-key",
    "EspoCRM",
    "API user's API key or HMAC secret key (random_bytes(16) in hex)",
    ["espocrm", "espo"],
    HEX32,
    "https://github.com/espocrm/espocrm/blob/HEAD/application/Espo/Core/Utils/Util.php",
  ),
  named(
    "cachet-api-key",
    "Cachet",
    "API token (X-Cachet-Token, Str::random(20))",
    ["cachet"],
    alnum(20),
    "https://github.com/cachethq/cachet/blob/HEAD/app/Models/User.php",
  ),
  // DocuSeal: SecureRandom.base58(43).
  named(
    "docuseal-api-token",
    "DocuSeal",
    "API access token (X-Auth-Token, 43 base58 characters)",
    ["docuseal"],
    "[1-9A-HJ-NP-Za-km-z]{43}",
    "https://github.com/docusealco/docuseal/blob/HEAD/app/models/access_token.rb",
  ),
  named(
    "fider-api-key",
    "Fider",
    "API key (64 letters and digits)",
    ["fider"],
    alnum(64),
    "https://github.com/getfider/fider/blob/HEAD/app/services/sqlstore/postgres/user.go",
  ),
  named(
    "baserow-database-token",
    "Baserow",
    "database token (32 letters and digits)",
    ["baserow"],
    alnum(32),
    "https://github.com/bram2w/baserow/blob/HEAD/backend/src/baserow/contrib/database/tokens/handler.py",
  ),
  // Dify: ApiToken.generate_api_key(prefix, 24), generate_string: letters and digits. App keys
  // start with app-, knowledge (dataset) keys with ds- (dataset- in older releases).
  named(
    "dify-app-api-key",
    "Dify",
    "app API key (app- and 24 letters and digits)",
    ["dify"],
    "app-[A-Za-z0-9]{24}",
    "https://github.com/langgenius/dify/blob/HEAD/api/controllers/console/apikey.py",
  ),
  named(
    "dify-dataset-api-key",
    "Dify",
    "knowledge (dataset) API key (ds- or dataset- and 24 letters and digits)",
    ["dify"],
    "(?:ds|dataset)-[A-Za-z0-9]{24}",
    "https://github.com/langgenius/dify/blob/HEAD/api/controllers/console/apikey.py",
  ),
  named(
    "changedetection-api-key",
    "changedetection.io",
    "API access token (secrets.token_hex(16))",
    ["changedetection"],
    HEX32,
    "https://github.com/dgtlmoon/changedetection.io/blob/HEAD/changedetectionio/store/__init__.py",
  ),
  named(
    "archivebox-api-token",
    "ArchiveBox",
    "API token (secrets.token_hex(16))",
    ["archivebox"],
    HEX32,
    "https://github.com/ArchiveBox/ArchiveBox/blob/HEAD/archivebox/api/models.py",
  ),
  named(
    "autobrr-api-key",
    "autobrr",
    "API key (16 random bytes in hex)",
    ["autobrr"],
    HEX32,
    "https://github.com/autobrr/autobrr/blob/HEAD/internal/api/service.go",
  ),
  // Bytebase service accounts: bbs_ and RandomString(20), letters and digits.
  lettersAfter(
    prefixed(
      "bytebase-service-account-key",
      "Bytebase",
      "service account key (bbs_ and 20 letters and digits)",
      "bbs_",
      "bbs_[A-Za-z0-9]{20}",
      "https://github.com/bytebase/bytebase/blob/HEAD/backend/api/v1/service_account_service.go",
    ),
    "bbs_",
  ),
  // AnythingLLM: uuid-apikey's create(), a UUIDv4 as four groups of 7 Crockford base32 characters.
  named(
    "anythingllm-api-key",
    "AnythingLLM",
    "developer API key (four dash-separated groups of 7 Crockford base32 characters)",
    ["anythingllm", "anything_llm", "anything-llm"],
    "[0-9A-HJKMNP-TV-Z]{7}-[0-9A-HJKMNP-TV-Z]{7}-[0-9A-HJKMNP-TV-Z]{7}-[0-9A-HJKMNP-TV-Z]{7}",
    "https://github.com/Mintplex-Labs/anything-llm/blob/HEAD/server/models/apiKeys.js",
  ),
  // Canvas LMS: CanvasSlug.generate(nil, 64), the slug alphabet without easily confused characters.
  named(
    "canvas-lms-access-token",
    "Canvas LMS",
    "access or refresh token (64 slug characters)",
    ["canvas"],
    "[2346789acefhkmnrtuvwxyzABCDEFGHJKLMNPQRTUVWXYZ]{64}",
    "https://github.com/instructure/canvas-lms/blob/HEAD/app/models/access_token.rb",
  ),
  // Forem (DEV): ApiSecret has_secure_token, 24 base58 characters.
  named(
    "forem-api-key",
    "Forem (DEV)",
    "API key (api-key header, 24 base58 characters)",
    ["forem", "devto"],
    "[1-9A-HJ-NP-Za-km-z]{24}",
    "https://github.com/forem/forem/blob/HEAD/app/models/api_secret.rb",
  ),
  named(
    "dawarich-api-key",
    "Dawarich",
    "API key (SecureRandom.hex(32))",
    ["dawarich"],
    HEX64,
    "https://github.com/Freika/dawarich/blob/HEAD/app/models/user.rb",
  ),
];
