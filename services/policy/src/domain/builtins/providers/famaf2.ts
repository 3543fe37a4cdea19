// Provider families A-F (issue 29), continuing providers/famaf.ts: each from the documentation of
// its token format (`docs`): self-identifying tokens by their prefix, generic shapes only where the
// provider is named before them. Fixtures: services/policy/fixtures/provider-tokens/famaf2.conf.
import type { ProviderFamily } from "../tokenRules.js";
import { notAWord } from "./famaf.js";
import { named, prefixed } from "./shapes.js";

export const FAMAF2_FAMILIES: ProviderFamily[] = [
  // Azure Cache for Redis: a 44-character base64 access key as the password of a connection string
  // to <name>.redis.cache.windows.net (host, port, then `password=`).
  {
    ...named(
      "azure-redis-cache-access-key",
      "Azure Cache for Redis",
      "access key (password of a redis.cache.windows.net connection string)",
      ["redis.cache.windows.net"],
      "[A-Za-z0-9/+]{43}=",
      "https://learn.microsoft.com/en-us/purview/sit-defn-azure-redis-cache-connection-string",
    ),
    distance: 120,
  },
  // ConfigCat's SDK keys: `configcat-sdk-1/`, then two 22-character sections separated by `/`.
  prefixed(
    "configcat-sdk-key",
    "ConfigCat",
    "SDK key",
    "configcat-sdk-1/",
    "configcat-sdk-1/[A-Za-z0-9_-]{22}/[A-Za-z0-9_-]{22}",
    "https://docs.rs/crate/configcat/0.1.6/source/src/constants.rs",
  ),
  // Databricks OAuth secrets of service principals: `dose` and the secret value.
  notAWord(
    prefixed(
      "databricks-oauth-secret",
      "Databricks",
      "service principal OAuth client secret",
      "dose",
      "dose[A-Za-z0-9]{32,64}",
      "https://docs.aws.amazon.com/secretsmanager/latest/userguide/mes-partner-DatabricksSPSecret.html",
    ),
  ),
  // The DOTENV_KEY that decrypts a .env.vault: `dotenv://:key_<64 hex>@dotenv.org/vault/...`.
  prefixed(
    "dotenv-vault-key",
    "Dotenv Vault",
    "DOTENV_KEY (decryption key of a .env.vault)",
    "dotenv://:key_",
    "dotenv://:key_[a-f0-9]{64}",
    "https://github.com/motdotla/dotenv/blob/master/lib/main.js",
  ),
  named(
    "fred-api-key",
    "FRED (Federal Reserve Bank of St. Louis)",
    "API key (32 lower-case letters and digits)",
    ["fred", "stlouisfed"],
    "[a-z0-9]{32}",
    "https://fred.stlouisfed.org/docs/api/api_key.html",
  ),
  // Model Studio (DashScope, Bailian) API keys start with sk-: reported only where the service is named.
  named(
    "alibaba-model-studio-api-key",
    "Alibaba Cloud Model Studio (DashScope)",
    "API key (sk-…)",
    ["dashscope", "bailian"],
    "sk-[A-Za-z0-9]{32,64}",
    "https://help.aliyun.com/en/model-studio/parse/authentication",
  ),
  // Qianfan API keys are sent as Bearer tokens: bce-v3/ALTAK-<key id>/<secret>.
  prefixed(
    "baidu-qianfan-api-key",
    "Baidu AI Cloud Qianfan",
    "API key (bce-v3/ALTAK-…)",
    "bce-v3/ALTAK-",
    "bce-v3/ALTAK-[A-Za-z0-9]{10,40}/[A-Za-z0-9]{20,64}",
    "https://cloud.baidu.com/doc/qianfan/s/rmh4stn9m",
  ),
  notAWord(
    prefixed(
      "caido-personal-access-token",
      "Caido",
      "personal access token",
      "caido_",
      "caido_[A-Za-z0-9_-]{20,128}",
      "https://docs.caido.io/dashboard/concepts/pat",
    ),
  ),
  // Devin (Cognition): service user API keys and personal access tokens share the cog_ prefix.
  notAWord(
    prefixed(
      "devin-api-key",
      "Devin (Cognition)",
      "service user API key or personal access token",
      "cog_",
      "cog_[A-Za-z0-9_-]{24,128}",
      "https://docs.devin.ai/api-reference/personal-access-tokens",
    ),
  ),
  notAWord(
    prefixed(
      "fastgpt-api-key",
      "FastGPT",
      "API key (personal or app key)",
      "fastgpt-",
      "fastgpt-[A-Za-z0-9]{20,128}",
      "https://doc.fastgpt.io/en/docs/openapi/intro",
    ),
  ),
  // AgentMail API keys start with am_ (organization, pod or inbox keys).
  prefixed(
    "agentmail-api-key",
    "AgentMail",
    "API key",
    "am_",
    "am_[A-Za-z0-9]{32,128}",
    "https://docs.agentmail.to/knowledge-base/getting-api-key",
  ),
  // Amazon Connect ACXD SDK API tokens: acxd_live_, a 20-character key prefix, a dot and the secret.
  prefixed(
    "amazon-connect-acxd-api-token",
    "Amazon Connect (ACXD SDK)",
    "API token of a programmatic user",
    "acxd_",
    String.raw`acxd_[a-z]{2,8}_[A-Za-z0-9]{20}\.[A-Za-z0-9]{32}`,
    "https://docs.aws.amazon.com/connect/latest/devguide/acxd-api-tokens.html",
  ),
  notAWord(
    prefixed(
      "browser-use-api-key",
      "Browser Use",
      "Cloud API key",
      "bu_",
      "bu_[A-Za-z0-9_-]{32,128}",
      "https://docs.browser-use.com/cloud/api-reference",
    ),
  ),
  notAWord(
    prefixed(
      "context7-api-key",
      "Context7",
      "API key",
      "ctx7sk-",
      "ctx7sk-[A-Za-z0-9_-]{20,128}",
      "https://context7.mintlify.dev/docs/howto/api-keys",
    ),
  ),
];
