// Provider families A-C and digits (issue 29), each from its provider's own documentation of the
// token format (`docs`): self-identifying tokens by their prefix or signature, generic shapes only
// where the provider is named before them. Fixtures: services/policy/fixtures/provider-tokens/famac.conf.
import type { ProviderFamily } from "../tokenRules.js";
import { named, prefixed } from "./shapes.js";

// Microsoft's identifiable Azure keys (microsoft/security-utilities, the library Azure's services
// generate and validate them with): a 4-character signature naming the service at a fixed place in
// the base64 key. A 32-byte key is 44 characters: 33, the signature, one of A-P, 5, and `=`; a
// 64-byte key is 88: 76, the signature, 5, one of A/Q/g/w, and `==`.
const MODELS =
  "https://github.com/microsoft/security-utilities/blob/main/src/Microsoft.Security.Utilities.Core/HighConfidenceMicrosoftSecurityModels/";
const B64 = "[A-Za-z0-9+/]";
const escaped = (signature: string) => signature.replace("+", String.raw`\+`);

const azureKey = (
  id: string,
  provider: string,
  secret: string,
  signature: string,
  bytes: 32 | 64,
  file: string,
): ProviderFamily => ({
  id,
  provider,
  secret,
  prefix: signature,
  token:
    bytes === 32
      ? `${B64}{33}${escaped(signature)}[A-P]${B64}{5}=`
      : `${B64}{76}${escaped(signature)}${B64}{5}[AQgw]==`,
  docs: `${MODELS}${file}`,
});

const PURVIEW = "https://learn.microsoft.com/en-us/purview/sit-defn-";

// Azure's connection strings separate their parts with `;` (`Endpoint=https://x.service.signalr.net;
// AccessKey=…`): the provider context's separators with `;`, for a family named by its host there.
const inConnectionString = (family: ProviderFamily): ProviderFamily => ({
  ...family,
  options: { context: { keywords: family.keywords!, separators: "=:>-.,/\\(){}[]<?&|@;" } },
});

export const FAMAC_FAMILIES: ProviderFamily[] = [
  azureKey(
    "azure-storage-identifiable-key",
    "Azure Storage",
    "identifiable account access key",
    "+ASt",
    64,
    "SEC101_152_AzureStorageAccountIdentifiableKey.cs",
  ),
  azureKey(
    "azure-cosmos-db-identifiable-key",
    "Azure Cosmos DB",
    "identifiable account key",
    "ACDb",
    64,
    "SEC101_160_AzureCosmosDbIdentifiableKey.cs",
  ),
  azureKey(
    "azure-batch-identifiable-key",
    "Azure Batch",
    "identifiable account access key",
    "+ABa",
    64,
    "SEC101_163_AzureBatchIdentifiableKey.cs",
  ),
  azureKey(
    "azure-ml-classic-identifiable-key",
    "Azure Machine Learning (classic web services)",
    "identifiable web service key",
    "+AMC",
    64,
    "SEC101_170_AzureMLWebServiceClassicIdentifiableKey.cs",
  ),
  // Direct management, subscription, gateway and repository keys share the signature.
  azureKey(
    "azure-api-management-identifiable-key",
    "Azure API Management",
    "identifiable key (direct management, subscription, gateway or repository)",
    "APIM",
    64,
    "SEC101_182_AzureApimIdentifiableSubscriptionKey.cs",
  ),
  azureKey(
    "azure-service-bus-identifiable-key",
    "Azure Service Bus",
    "identifiable shared access key",
    "+ASb",
    32,
    "SEC101_171_AzureServiceBusIdentifiableKey.cs",
  ),
  azureKey(
    "azure-event-hubs-identifiable-key",
    "Azure Event Hubs",
    "identifiable shared access key",
    "+AEh",
    32,
    "SEC101_172_AzureEventHubIdentifiableKey.cs",
  ),
  azureKey(
    "azure-relay-identifiable-key",
    "Azure Relay",
    "identifiable shared access key",
    "+ARm",
    32,
    "SEC101_173_AzureRelayIdentifiableKey.cs",
  ),
  // IoT Hub, device and Device Provisioning Service keys share the signature.
  azureKey(
    "azure-iot-identifiable-key",
    "Azure IoT Hub",
    "identifiable shared access key (hub, device or provisioning service)",
    "AIoT",
    32,
    "SEC101_178_AzureIotHubIdentifiableKey.cs",
  ),
  azureKey(
    "azure-cache-for-redis-identifiable-key",
    "Azure Cache for Redis",
    "identifiable access key",
    "AzCa",
    32,
    "SEC101_154_AzureCacheForRedisIdentifiableKey.cs",
  ),
  azureKey(
    "azure-event-grid-identifiable-key",
    "Azure Event Grid",
    "identifiable access key",
    "AZEG",
    32,
    "SEC101_190_AzureEventGridIdentifiableKey.cs",
  ),
  // Function, host and master keys: URL-safe base64, 44 characters, AzFu, 5, one of A/Q/g/w, `==`.
  {
    id: "azure-functions-identifiable-key",
    provider: "Azure Functions",
    secret: "identifiable function, host or master key",
    prefix: "AzFu",
    token: "[A-Za-z0-9_-]{44}AzFu[A-Za-z0-9_-]{5}[AQgw]==",
    docs: `${MODELS}SEC101_158_AzureFunctionIdentifiableKey.cs`,
  },
  // Admin and query keys: 52 letters and digits, AzSe after the 42nd, then one of A-D and 5 more.
  {
    id: "azure-search-identifiable-key",
    provider: "Azure AI Search",
    secret: "identifiable admin or query key",
    prefix: "AzSe",
    token: "[A-Za-z0-9]{42}AzSe[A-D][A-Za-z0-9]{5}",
    docs: `${MODELS}SEC101_166_AzureSearchIdentifiableQueryKey.cs`,
  },
  {
    id: "azure-container-registry-identifiable-key",
    provider: "Azure Container Registry",
    secret: "identifiable access key",
    prefix: "+ACR",
    token: String.raw`[A-Za-z0-9+/]{42}\+ACR[A-D][A-Za-z0-9+/]{5}`,
    docs: `${MODELS}SEC101_176_AzureContainerRegistryIdentifiableKey.cs`,
  },
  // Microsoft Purview's definitions of the older Azure keys: a generic shape, named by its service.
  inConnectionString(
    named(
      "azure-signalr-access-key",
      "Azure SignalR Service",
      "access key (43 base64 characters and `=`)",
      ["signalr"],
      "[A-Za-z0-9+/]{43}=",
      `${PURVIEW}azure-signalr-access-key`,
    ),
  ),
  named(
    "azure-event-grid-access-key",
    "Azure Event Grid",
    "topic or domain access key (43 base64 characters and `=`)",
    ["eventgrid", "aeg-sas-key", "aeg_sas_key"],
    "[A-Za-z0-9+/]{43}=",
    `${PURVIEW}azure-eventgrid-access-key`,
  ),
  // The admin account's password of a registry (192 bits, 32 base64 characters), e.g. after
  // `docker login <name>.azurecr.io -u <name> -p`.
  named(
    "azure-container-registry-access-key",
    "Azure Container Registry",
    "admin access key (32 base64 characters)",
    ["azurecr"],
    "[A-Za-z0-9+/]{32}",
    `${PURVIEW}azure-container-registry-access-key`,
  ),
  {
    ...named(
      "azure-maps-subscription-key",
      "Azure Maps",
      "subscription key (43 URL-safe base64 characters)",
      ["atlas.microsoft.com", "azure_maps", "azure-maps", "azuremaps"],
      "[A-Za-z0-9_-]{43}",
      `${PURVIEW}azure-maps-subscription-key`,
    ),
    // A REST call names the host, then the path and `?api-version=1.0&subscription-key=`.
    distance: 100,
  },
  // Web Chat and Direct Line channel secrets: 11, 3 and 3 characters and 43 after dots, or 55.
  named(
    "azure-bot-framework-secret-key",
    "Azure Bot Service (Bot Framework)",
    "Web Chat or Direct Line channel secret",
    ["botframework", "directline", "direct_line"],
    String.raw`[A-Za-z0-9_-]{11}\.[A-Za-z0-9_-]{3}\.[A-Za-z0-9_-]{3}\.[A-Za-z0-9_-]{43}|[A-Za-z0-9_.]{55}`,
    `${PURVIEW}azure-bot-framework-secret-key`,
  ),
  // Version da2 of AppSync's API keys (da1 keys stopped working in 2018). AWS documents the version
  // prefix, not the length: lower-case letters and digits, 20 to 40 of them.
  prefixed(
    "aws-appsync-api-key",
    "AWS AppSync",
    "GraphQL API key (da2)",
    "da2-",
    "da2-[a-z0-9]{20,40}",
    "https://docs.aws.amazon.com/appsync/latest/APIReference/API_ApiKey.html",
  ),
  // bkar_, a short base64 shard id, `.` and the secret (77 characters in Buildkite's example).
  prefixed(
    "buildkite-unclustered-agent-token",
    "Buildkite",
    "unclustered agent (registration) token",
    "bkar_",
    String.raw`bkar_[A-Za-z0-9]{2,8}\.[A-Za-z0-9]{40,80}`,
    "https://buildkite.com/docs/platform/security/tokens",
  ),
  // CCIPRJ_, a base58 UUID, `_` and 40 hexadecimal characters (personal tokens: CCIPAT_).
  prefixed(
    "circleci-project-api-token",
    "CircleCI",
    "project API token",
    "CCIPRJ_",
    "CCIPRJ_[1-9A-HJ-NP-Za-km-z]{20,22}_[a-f0-9]{40}",
    "https://circleci.com/changelog/new-format-for-api-access-tokens/",
  ),
  // The deployment (FTP/Web Deploy) password of a publish profile: `userPWD="…"`, 60 base64 characters.
  named(
    "azure-app-service-deployment-password",
    "Azure App Service",
    "deployment password (publish profile userPWD)",
    ["userpwd"],
    "[A-Za-z0-9+/]{60}",
    `${PURVIEW}azure-app-service-deployment-password`,
  ),
  // A common annotated security key (84 characters, or 88 with a 4-byte checksum and `==`): 52
  // random characters, the signature JQQJ9 and 9, D or H, the creation year and month (A-L), 16
  // reserved characters, the service's 4-character signature and the checksum. Azure DevOps' keys
  // (signature AZDO) are azure-devops-pat-identifiable's.
  {
    id: "azure-common-annotated-security-key",
    provider: "Microsoft Azure",
    secret: "common annotated security key (JQQJ9 format)",
    prefix: "JQQJ9",
    token: "[A-Za-z0-9]{52}JQQJ9[9DH][A-Za-z0-9][A-L][A-Za-z0-9]{16}[A-Za-z][A-Za-z0-9]{7}(?:[A-Za-z0-9]{2}==)?",
    docs: "https://github.com/microsoft/security-utilities/blob/main/src/Microsoft.Security.Utilities.Core/LegacyCommonAnnotatedSecurityKey.cs",
    options: { allowlist: ["^.{76}AZDO"] },
  },
  // The classic deployment model's management certificate: base64 of a PKCS#12 file (`MII…`), the
  // ManagementCertificate attribute of a .publishsettings file.
  named(
    "azure-management-certificate",
    "Azure (classic deployment model)",
    "subscription management certificate (base64 PKCS#12)",
    ["managementcertificate"],
    "MII[A-Za-z0-9+/]{60}[A-Za-z0-9+/]*={0,2}",
    `${PURVIEW}azure-subscription-management-certificate`,
  ),
  // Coder's API keys and session tokens: a 10-character key id, `-`, and a 22-character secret.
  named(
    "coder-session-token",
    "Coder",
    "API key or session token",
    ["coder"],
    "[A-Za-z0-9]{10}-[A-Za-z0-9]{22}",
    "https://github.com/coder/coder/blob/main/coderd/apikey/apikey.go",
  ),
  // The SES SMTP password AWS derives from a secret access key: base64 of the version byte 0x04 and
  // an HMAC-SHA256 (33 bytes), so 44 characters starting with B and one of A-P.
  named(
    "aws-ses-smtp-password",
    "Amazon SES",
    "SMTP password (derived from a secret access key, version 4)",
    ["smtp", "ses"],
    "B[A-P][A-Za-z0-9+/]{42}",
    "https://docs.aws.amazon.com/ses/latest/dg/smtp-credentials.html",
  ),
  // A remotely-managed tunnel's token: base64 of {"a": account tag, "t": tunnel id, "s": secret}, so
  // it starts eyJhIjoi (`{"a":"`); at least 180 characters for a 32-byte secret.
  prefixed(
    "cloudflare-tunnel-token",
    "Cloudflare Tunnel",
    "cloudflared tunnel token",
    "eyJhIjoi",
    "eyJhIjoi[A-Za-z0-9+/]{150,400}={0,2}",
    "https://developers.cloudflare.com/cloudflare-one/connections/connect-networks/configure-tunnels/remote-tunnel-permissions",
  ),
  // bxt_ and 36 letters and digits (the authentication guide's example).
  prefixed(
    "brex-user-token",
    "Brex",
    "API user token",
    "bxt_",
    "bxt_[A-Za-z0-9]{36}",
    "https://developer.brex.com/docs/authentication",
  ),
  // Access tokens of v2/v3 authentication (with HMAC) start with v2x (the changelog); BitGo's SDK
  // repository's examples (BitGo/BitGoJS lab/algo/env.js) show v2x and 64 hexadecimal characters.
  prefixed(
    "bitgo-access-token",
    "BitGo",
    "access token (v2x)",
    "v2x",
    "v2x[a-f0-9]{64}",
    "https://developers.bitgo.com/changelog/20251203",
  ),
  prefixed(
    "basedash-api-key",
    "Basedash",
    "API key",
    "bd_key_",
    "bd_key_[A-Za-z0-9]{32}",
    "https://basedash.com/docs/api-reference/overview",
  ),
  // Restricted API Access tokens of AuthZed's SpiceDB services: {prefix}_{key}, sdbst_ and the hash
  // (`sdbst_h256_…`); a key of letters alone is the documentation's placeholder, not a secret.
  {
    ...prefixed(
      "authzed-api-token",
      "AuthZed (SpiceDB)",
      "Restricted API Access token",
      "sdbst_",
      "sdbst_[a-z0-9]{2,8}_[A-Za-z0-9]{16,128}",
      "https://authzed.com/docs/authzed/concepts/restricted-api-access",
    ),
    options: { allowlist: ["^sdbst_[a-z0-9]+_[A-Za-z]+$"] },
  },
];
