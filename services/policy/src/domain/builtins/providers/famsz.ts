// Providers S-Z and digits (famsz), each from the provider's own documentation of its token
// format (prefix, alphabet, length, required parts) or its official SDK's validation of it.
// Generic shapes are reported only where the provider is named before them.
import type { ProviderFamily } from "../tokenRules.js";
import { named, prefixed } from "./shapes.js";

export const FAMSZ_FAMILIES: ProviderFamily[] = [
  named(
    "tremendous-api-key",
    "Tremendous",
    "API key (sandbox `TEST_`, production `PROD_`)",
    ["tremendous"],
    "(?:TEST|PROD)_[A-Za-z0-9_-]{20,128}",
    "https://developers.tremendous.com/docs/sandbox-environment",
  ),
  {
    id: "salvy-api-key",
    provider: "Salvy",
    secret: "company or organization API key",
    prefix: ["salvy_prod_", "salvy_test_", "salvy_org_prod_"],
    token: "salvy_(?:prod|test|org_prod)_[A-Za-z0-9]{16,128}",
    docs: "https://docs.salvy.com.br/api-reference/v3/environments",
  },
  prefixed(
    "soyio-sandbox-api-key",
    "Soyio",
    "sandbox API key",
    "ak_sandbox_",
    "ak_sandbox_[A-Za-z0-9]{16,128}",
    "https://docs.soyio.id/docs/api/sandbox-mode",
  ),
  {
    id: "unzer-private-key",
    provider: "Unzer",
    secret: "private API key",
    prefix: ["s-priv-", "p-priv-"],
    token: "[sp]-priv-[A-Za-z0-9]{16,64}",
    docs: "https://github.com/unzerdev/php-sdk/blob/HEAD/src/Validators/PrivateKeyValidator.php",
  },
  prefixed(
    "stack-auth-secret-server-key",
    "Stack Auth",
    "secret server key",
    "ssk_",
    "ssk_[A-Za-z0-9]{20,100}",
    "https://docs.stack-auth.com/docs/rest-api/overview",
  ),
  named(
    "shipstation-sandbox-api-key",
    "ShipStation API (ShipEngine)",
    "sandbox API key",
    ["shipengine", "shipstation"],
    "TEST_[A-Za-z0-9+/]{20,64}",
    "https://docs.shipstation.com/apis/shipengine/docs/getting-started/sandbox",
  ),
  prefixed(
    "walletconnect-pay-api-key",
    "WalletConnect Pay",
    "API key (test `wcp_test_`, live `wcp_`)",
    "wcp_",
    "wcp_(?:test_)?[A-Za-z0-9]{20,100}",
    "https://docs.walletconnect.com/api-reference/authentication",
  ),
  prefixed(
    "tolgee-project-api-key",
    "Tolgee",
    "project API key",
    "tgpak_",
    "tgpak_[A-Za-z0-9_-]{16,128}",
    "https://docs.tolgee.io/platform/account_settings/api_keys_and_pat_tokens",
  ),
  prefixed(
    "zerion-dev-api-key",
    "Zerion",
    "developer API key",
    "zk_dev_",
    "zk_dev_[A-Za-z0-9]{16,128}",
    "https://github.com/zeriontech/zerion-ai/blob/HEAD/README.md",
  ),
  {
    id: "schematic-secret-key",
    provider: "Schematic",
    secret: "secret API key (production, staging or development)",
    prefix: ["sch_prod_", "sch_stag_", "sch_dev_"],
    token: "sch_(?:prod|stag|dev)_[A-Za-z0-9]{16,128}",
    docs: "https://docs.schematichq.com/api-reference/authentication",
  },
];
