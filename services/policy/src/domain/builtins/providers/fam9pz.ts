// Providers P-Z and digits (fam9pz), each from the provider's own documentation of its token
// format or from the code that generates the token in the provider's own official repository.
// Generic shapes are reported only where the provider is named before them.
import type { ProviderFamily } from "../tokenRules.js";
import { HEX32, HEX40, lettersAfter, named, prefixed } from "./shapes.js";

export const FAM9PZ_FAMILIES: ProviderFamily[] = [
  named(
    "tautulli-api-key",
    "Tautulli",
    "API key (`uuid.uuid4().hex`)",
    ["tautulli", "plexpy"],
    HEX32,
    "https://github.com/Tautulli/Tautulli/blob/HEAD/plexpy/__init__.py",
  ),
  named(
    "syncthing-api-key",
    "Syncthing",
    "GUI/REST API key (32 characters of Syncthing's random alphabet, without 0, 1, 8, l, B, I, O)",
    ["syncthing"],
    "[2-79a-km-zAC-HJ-NP-Z]{32}",
    "https://github.com/syncthing/syncthing/blob/HEAD/lib/config/guiconfiguration.go",
  ),
  prefixed(
    "uptime-kuma-api-key",
    "Uptime Kuma",
    "API key (`uk` + key id + `_` + nanoid(40))",
    "uk",
    "uk[1-9][0-9]{0,9}_[A-Za-z0-9_-]{40}",
    "https://github.com/louislam/uptime-kuma/blob/HEAD/server/socket-handlers/api-key-socket-handler.js",
  ),
  prefixed(
    "pydantic-logfire-token",
    "Pydantic Logfire",
    "write, read or user token (`pylf_v<version>_<region>_`; the SDK's pattern gives no length, at least 20 here)",
    "pylf_v",
    "pylf_v[0-9]{1,3}_[a-z]{2,16}_[A-Za-z0-9]{20,128}",
    "https://github.com/pydantic/logfire/blob/HEAD/logfire/_internal/auth.py",
  ),
  lettersAfter(
    prefixed(
      "volcengine-access-key-id",
      "Volcengine",
      "Access Key ID (`AKLT`, documented alphabet, under 256 characters; at least 16 after the prefix here)",
      "AKLT",
      "AKLT[A-Za-z0-9_-]{16,251}",
      "https://www.volcengine.com/docs/6257/65048",
    ),
    "AKLT",
  ),
  named(
    "volcengine-secret-access-key",
    "Volcengine",
    "Secret Access Key (base64 ending in `==`, under 256 characters)",
    ["volcengine", "volc", "volcano"],
    "[A-Za-z0-9+/]{20,252}==",
    "https://www.volcengine.com/docs/6257/65048",
  ),
  named(
    "redmine-api-key",
    "Redmine",
    "REST API access key (`Redmine::Utils.random_hex(20)`)",
    ["redmine"],
    HEX40,
    "https://github.com/redmine/redmine/blob/HEAD/app/models/token.rb",
  ),
  prefixed(
    "tandoor-api-token",
    "Tandoor Recipes",
    "API token (`tda_` + a UUID with underscores)",
    "tda_",
    "tda_[a-f0-9]{8}_[a-f0-9]{4}_[a-f0-9]{4}_[a-f0-9]{4}_[a-f0-9]{12}",
    "https://github.com/TandoorRecipes/recipes/blob/HEAD/cookbook/serializer.py",
  ),
  named(
    "postal-credential-key",
    "Postal",
    "API or SMTP credential key (`SecureRandom.alphanumeric(24)`)",
    ["postal"],
    "[A-Za-z0-9]{24}",
    "https://github.com/postalserver/postal/blob/HEAD/app/models/credential.rb",
  ),
  named(
    "semaphore-ui-api-token",
    "Semaphore UI",
    "API token (32 random bytes, URL-safe base64 in lower case)",
    ["semaphore"],
    "[a-z0-9_-]{43}=",
    "https://github.com/semaphoreui/semaphore/blob/HEAD/api/user.go",
  ),
  named(
    "sabnzbd-api-key",
    "SABnzbd",
    "API key or NZB key (`uuid.uuid4().hex`)",
    ["sabnzbd"],
    HEX32,
    "https://github.com/sabnzbd/sabnzbd/blob/HEAD/sabnzbd/config.py",
  ),
  named(
    "yourls-signature-token",
    "YOURLS",
    "API signature token (HMAC of the user, 32 hexadecimal characters by default)",
    ["yourls"],
    HEX32,
    "https://github.com/YOURLS/YOURLS/blob/HEAD/includes/functions-auth.php",
  ),
];
