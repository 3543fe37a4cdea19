import { namedSecret } from "./tokenRules.js";
import { type BuiltinPolicy, builtinSettings, docs, SECRET_CLAIMS, SECRET_FRAMEWORKS } from "./types.js";
import { OTHER_OBJECT_ID, UUID } from "./identifiers.js";
import { SECRETS_CATEGORY } from "../policy.js";

export const cryptoExchangeKeys: BuiltinPolicy = {
  id: "crypto-exchange-keys",
  name: "Cryptocurrency exchange API keys",
  description: "Detects API keys and secrets of cryptocurrency exchanges: Coinbase, Kraken, KuCoin and Bittrex.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    namedSecret(
      "coinbase-access-token",
      "Coinbase access token found in source code",
      "coinbase",
      "[A-Za-z0-9_-]{64}",
      ["coinbase"],
      { min_entropy: 3 },
    ),
    // Private keys are 64 bytes in base64 (88 characters); the range allows for URL-safe forms.
    namedSecret(
      "kraken-api-secret",
      "Kraken API private key found in source code",
      "kraken",
      "[A-Za-z0-9/=_+-]{80,90}",
      ["kraken"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "kucoin-api-key",
      "KuCoin API key found next to KuCoin credentials",
      "kucoin",
      "[a-f0-9]{24}",
      ["kucoin"],
      { min_entropy: 3, match_allowlist: [OTHER_OBJECT_ID] },
    ),
    namedSecret("kucoin-api-secret", "KuCoin API secret found in source code", "kucoin", UUID, ["kucoin"], {
      match_allowlist: [OTHER_OBJECT_ID],
    }),
    // API keys and their secrets share one shape: 32 letters and digits.
    namedSecret(
      "bittrex-api-key",
      "Bittrex API key or secret found in source code",
      "bittrex",
      "[A-Za-z0-9]{32}",
      ["bittrex"],
      { min_entropy: 3 },
    ),
  ],
  suggestions: [
    "Delete the API key in the exchange's settings now and check the account's withdrawal history; create a new key without withdrawal rights, limited to known IP addresses, and read it from a secrets manager.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("crypto-exchange-keys"),
  settings: builtinSettings(),
};
