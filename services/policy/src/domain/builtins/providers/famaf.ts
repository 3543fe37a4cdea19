// Provider families A-F (issue 29), each from the provider's own documentation of its token
// format (`docs`): self-identifying tokens by their prefix, generic shapes only where the provider
// is named before them. Fixtures: services/policy/fixtures/provider-tokens/famaf.conf.
import type { ProviderFamily } from "../tokenRules.js";
import { UUID, alnum, named, prefixed } from "./shapes.js";

/** A prefixed family whose prefix may be followed by a word: a value of letters alone is not a key. */
export const notAWord = (family: ProviderFamily): ProviderFamily => ({
  ...family,
  options: { allowlist: ["^[A-Za-z_.-]+$"] },
});

export const FAMAF_FAMILIES: ProviderFamily[] = [
  prefixed(
    "asaas-api-key",
    "Asaas",
    "API key (production or sandbox)",
    "aact_",
    "aact_(?:prod|hmlg)_[A-Za-z0-9+/=]{30,400}",
    "https://docs.asaas.com/changelog/novidade-novo-prefixo-de-identifica%C3%A7%C3%A3o-das-chaves-api",
  ),
  prefixed(
    "apollo-graph-api-key",
    "Apollo GraphOS",
    "graph API key (service:<graph id>:<secret>)",
    "service:",
    "service:[A-Za-z0-9_-]{1,64}:[A-Za-z0-9_-]{20,64}",
    "https://www.apollographql.com/docs/graphos/platform/access-management/api-keys/graph-api-keys",
  ),
  // Microsoft's identifiable format: 84 characters with the signature AZDO at characters 77-80.
  {
    id: "azure-devops-pat-identifiable",
    provider: "Azure DevOps",
    secret: "personal access token (84-character format)",
    prefix: "AZDO",
    token: "[A-Za-z0-9]{76}AZDO[A-Za-z0-9]{4}",
    docs: "https://learn.microsoft.com/en-us/purview/sit-defn-azure-devops-personal-access-token",
  },
  named(
    "azure-function-key",
    "Azure Functions",
    "function, host or master key (base64 ending ==, or URL-encoded ending %3d%3d)",
    ["azurewebsites", "x-functions-key", "function_key", "functions_key"],
    "[A-Za-z0-9/+]{54}==|[A-Za-z0-9%]{54,84}%3[dD]%3[dD]",
    "https://learn.microsoft.com/en-us/purview/sit-defn-azure-function-master-api-key",
  ),
  named(
    "azure-search-api-key",
    "Azure AI Search",
    "admin or query API key (52 letters and digits)",
    ["search.windows.net", "azure_search", "azure-search", "azuresearch", "search_api_key"],
    alnum(52),
    "https://learn.microsoft.com/en-us/azure/search/search-security-api-keys",
  ),
  // One prefix per network: Cardano mainnet, preprod and preview, and IPFS.
  notAWord({
    id: "blockfrost-project-id",
    provider: "Blockfrost",
    secret: "project_id token",
    prefix: ["mainnet", "preprod", "preview", "ipfs"],
    token: "(?:mainnet|preprod|preview|ipfs)[A-Za-z0-9]{32}",
    docs: "https://www.blockfrost.dev/overview/making-first-call",
  }),
  prefixed(
    "cartesia-admin-api-key",
    "Cartesia",
    "admin API key",
    "sk_car_admin_",
    "sk_car_admin_[A-Za-z0-9_-]{20,100}",
    "https://docs.cartesia.ai/use-the-api/api-conventions",
  ),
  // Cloudflare's scannable formats: a prefix, 40 characters and a checksum.
  prefixed(
    "cloudflare-scannable-global-api-key",
    "Cloudflare",
    "Global API key (scannable format)",
    "cfk_",
    "cfk_[A-Za-z0-9_-]{42,64}",
    "https://developers.cloudflare.com/fundamentals/api/get-started/token-formats",
  ),
  prefixed(
    "cloudflare-user-api-token",
    "Cloudflare",
    "user API token (scannable format)",
    "cfut_",
    "cfut_[A-Za-z0-9_-]{42,64}",
    "https://developers.cloudflare.com/fundamentals/api/get-started/token-formats",
  ),
  prefixed(
    "cloudflare-account-api-token",
    "Cloudflare",
    "account API token (scannable format)",
    "cfat_",
    "cfat_[A-Za-z0-9_-]{42,64}",
    "https://developers.cloudflare.com/fundamentals/api/get-started/token-formats",
  ),
  named(
    "checkly-service-api-key",
    "Checkly",
    "service API key",
    ["checkly"],
    "sv_[a-f0-9]{32}",
    "https://feedback.checklyhq.com/changelog/introducing-service-api-keys",
  ),
  named(
    "databento-api-key",
    "Databento",
    "API key",
    ["databento"],
    "db-[A-Za-z0-9]{29}",
    "https://databento.com/docs/api-historical/basics/authentication",
  ),
  named(
    "deepl-api-key",
    "DeepL",
    "authentication key (Free keys end in :fx)",
    ["deepl"],
    `${UUID}(?::fx)?`,
    "https://developers.deepl.com/docs/getting-started/auth",
  ),
  prefixed(
    "dub-api-key",
    "Dub",
    "workspace API key",
    "dub_",
    "dub_[A-Za-z0-9]{20,64}",
    "https://dub.co/docs/api-reference/tokens",
  ),
  named(
    "dub-legacy-api-key",
    "Dub",
    "legacy user API key (24-character nanoid)",
    ["dub"],
    alnum(24),
    "https://dub.co/blog/workspace-api-keys",
  ),
  prefixed(
    "dynatrace-dt0s-token",
    "Dynatrace",
    "platform token, OAuth client secret or account API token (prefix, 24-character public part, 64-character secret)",
    "dt0s",
    String.raw`dt0s[0-9]{2}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}`,
    "https://docs.dynatrace.com/docs/shortlink/api-authentication",
  ),
];
