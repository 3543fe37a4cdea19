// Providers L-R, continued (famlr2): each from the provider's own source that issues the token
// (prefix, alphabet, length). Their `sk-`/`sk_` prefixes are shared with other issuers, so every
// family here is reported only where its provider is named before it.
import type { ProviderFamily } from "../tokenRules.js";
import { alnum, named } from "./shapes.js";

// Nextcloud's app passwords: 72 alphanumerics from the OCS `getapppassword` endpoint (what login
// flows hand to clients), or five dash-separated groups of five human-readable alphanumerics from
// the Security settings page.
const NEXTCLOUD = "https://github.com/nextcloud/server/blob/master";

export const FAMLR2_FAMILIES: ProviderFamily[] = [
  // Open WebUI: `sk-` and a UUID4 without its dashes (32 lower-case hexadecimal characters).
  named(
    "open-webui-api-key",
    "Open WebUI",
    "API key",
    ["webui", "openwebui"],
    "sk-[a-f0-9]{32}",
    "https://github.com/open-webui/open-webui/blob/main/backend/open_webui/utils/auth.py",
  ),
  // Langflow: `sk-` and `secrets.token_urlsafe(32)` (43 URL-safe Base64 characters).
  named(
    "langflow-api-key",
    "Langflow",
    "API key",
    ["langflow"],
    "sk-[A-Za-z0-9_-]{43}",
    "https://github.com/langflow-ai/langflow/blob/main/src/backend/base/langflow/services/database/models/api_key/crud.py",
  ),
  // LiteLLM proxy virtual keys: `sk-` and `secrets.token_urlsafe(16)` by default (22 characters).
  named(
    "litellm-virtual-key",
    "LiteLLM",
    "proxy virtual key",
    ["litellm"],
    "sk-[A-Za-z0-9_-]{22}",
    "https://github.com/BerriAI/litellm/blob/main/litellm/proxy/management_endpoints/key_management_endpoints.py",
  ),
  // Medusa's secret API keys: `sk_` and 32 random bytes in hexadecimal (64 characters).
  named(
    "medusa-secret-api-key",
    "Medusa",
    "secret API key",
    ["medusa"],
    "sk_[a-f0-9]{64}",
    "https://github.com/medusajs/medusa/blob/develop/packages/modules/api-key/src/services/api-key-module-service.ts",
  ),
  named(
    "nextcloud-app-password",
    "Nextcloud",
    "app password (login flow)",
    ["nextcloud"],
    alnum(72),
    `${NEXTCLOUD}/core/Controller/AppPasswordController.php`,
  ),
  named(
    "nextcloud-device-app-password",
    "Nextcloud",
    "app password (Security settings)",
    ["nextcloud"],
    "[A-Za-z0-9]{5}(?:-[A-Za-z0-9]{5}){4}",
    `${NEXTCLOUD}/apps/settings/lib/Controller/AuthSettingsController.php`,
  ),
  // Rocket.Chat's personal access tokens: `Random.secret()` of its own random package, 43 characters
  // of `[A-Za-z0-9_-]`.
  named(
    "rocketchat-personal-access-token",
    "Rocket.Chat",
    "personal access token",
    ["rocketchat", "rocket"],
    "[A-Za-z0-9_-]{43}",
    "https://github.com/RocketChat/Rocket.Chat/blob/develop/apps/meteor/imports/personal-access-tokens/server/api/methods/generateToken.ts",
  ),
];
