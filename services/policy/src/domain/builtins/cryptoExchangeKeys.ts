import { assignment, builtinSettings, docs, SECRET_FRAMEWORKS, type BuiltinPolicy } from "./types.js";
import { OTHER_OBJECT_ID } from "./identifiers.js";
import { SECRETS_CATEGORY } from "../policy.js";

const UUID = "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}";

export const cryptoExchangeKeys: BuiltinPolicy = {
  id: "crypto-exchange-keys",
  name: "Cryptocurrency exchange API keys",
  description: "Detects API keys and secrets of cryptocurrency exchanges: Coinbase, Kraken, KuCoin and Bittrex.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    {
      id: "coinbase-access-token",
      type: "regex",
      value: assignment("coinbase", "[A-Za-z0-9_-]{64}"),
      message: "Coinbase access token found in source code",
      redact_group: 1,
      keywords: ["coinbase"],
      min_entropy: 3,
    },
    {
      id: "kraken-api-secret",
      type: "regex",
      // Private keys are 64 bytes in base64 (88 characters); the range allows for URL-safe forms.
      value: assignment("kraken", "[A-Za-z0-9/=_+-]{80,90}"),
      message: "Kraken API private key found in source code",
      redact_group: 1,
      keywords: ["kraken"],
      min_entropy: 3,
    },
    {
      id: "kucoin-api-key",
      type: "regex",
      value: assignment("kucoin", "[a-f0-9]{24}"),
      message: "KuCoin API key found next to KuCoin credentials",
      redact_group: 1,
      keywords: ["kucoin"],
      min_entropy: 3,
      match_allowlist: [OTHER_OBJECT_ID],
    },
    {
      id: "kucoin-api-secret",
      type: "regex",
      value: assignment("kucoin", UUID),
      message: "KuCoin API secret found in source code",
      redact_group: 1,
      keywords: ["kucoin"],
      match_allowlist: [OTHER_OBJECT_ID],
    },
    {
      id: "bittrex-api-key",
      type: "regex",
      // API keys and their secrets share one shape: 32 letters and digits.
      value: assignment("bittrex", "[A-Za-z0-9]{32}"),
      message: "Bittrex API key or secret found in source code",
      redact_group: 1,
      keywords: ["bittrex"],
      min_entropy: 3,
    },
  ],
  suggestions: [
    "Delete the API key in the exchange's settings now and check the account's withdrawal history; create a new key without withdrawal rights, limited to known IP addresses, and read it from a secrets manager.",
  ],
  documentation_url: docs("crypto-exchange-keys"),
  settings: builtinSettings(),
};
