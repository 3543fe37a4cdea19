// Providers M-R (fam10mr), each from the code that generates the token in the provider's own
// official repository. Self-identifying tokens stand alone; generic shapes are reported only where
// the provider is named before them.
import type { ProviderFamily } from "../tokenRules.js";
import { prefixed } from "./shapes.js";

// Matrix Authentication Service (`TokenType::generate`): a three-letter prefix per token type,
// `_`, 30 letters and digits, `_`, and the CRC-32 of what comes before in 6 base62 digits.
const MAS_TOKENS =
  "https://github.com/element-hq/matrix-authentication-service/blob/HEAD/crates/data-model/src/tokens.rs";
const masToken = (id: string, secret: string, prefix: string): ProviderFamily =>
  prefixed(
    id,
    "Matrix Authentication Service",
    secret,
    `${prefix}_`,
    `${prefix}_[A-Za-z0-9]{30}_[0-9A-Za-z]{6}`,
    MAS_TOKENS,
  );

export const FAM10MR_FAMILIES: ProviderFamily[] = [
  masToken("matrix-authentication-service-access-token", "OAuth 2.0 access token (`mat_`, base62 CRC-32)", "mat"),
  masToken("matrix-authentication-service-refresh-token", "OAuth 2.0 refresh token (`mar_`, base62 CRC-32)", "mar"),
  masToken(
    "matrix-authentication-service-compat-access-token",
    "compatibility (legacy Matrix API) access token (`mct_`, base62 CRC-32)",
    "mct",
  ),
  masToken(
    "matrix-authentication-service-compat-refresh-token",
    "compatibility (legacy Matrix API) refresh token (`mcr_`, base62 CRC-32)",
    "mcr",
  ),
  masToken(
    "matrix-authentication-service-personal-access-token",
    "personal access token (`mpt_`, base62 CRC-32)",
    "mpt",
  ),
];
