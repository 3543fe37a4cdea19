import { SECRETS_CATEGORY } from "../policy.js";
import { formatToken, namedSecret } from "./tokenRules.js";
import { type BuiltinPolicy, builtinSettings, docs, SECRET_CLAIMS, SECRET_FRAMEWORKS } from "./types.js";

export const identityProviderTokens: BuiltinPolicy = {
  id: "identity-provider-tokens",
  name: "Identity provider and password manager tokens",
  description:
    "Detects credentials of identity and secrets services: Okta API tokens, Authress service client access keys, 1Password account secret keys and service account tokens. One of these opens every account or vault behind it.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    namedSecret(
      "okta-api-token",
      "Okta API token found in source code",
      "(?-i:[Oo]kta|OKTA)",
      "00[A-Za-z0-9_=-]{40}",
      ["okta"],
      { min_entropy: 4 },
    ),
    formatToken(
      "authress-service-client-access-key",
      "Authress service client access key found in source code",
      String.raw`(?:sc|ext|scauth|authress)_[A-Za-z0-9]{5,30}\.[A-Za-z0-9]{4,6}\.acc[_-][A-Za-z0-9-]{10,32}\.[A-Za-z0-9+/_=-]{30,120}`,
      ["sc_", "ext_", "scauth_", "authress_"],
      { min_entropy: 2 },
    ),
    // A3-<account id 6>-<11, or 6-5>-<5>-<5>-<5>: the account password's second factor.
    formatToken(
      "1password-secret-key",
      "1Password account secret key found in source code",
      "A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}",
      ["a3-"],
      { min_entropy: 3.8 },
    ),
    // ops_ + base64 JSON ({"signInAddress":…, "email":…, "muk":…, "secretKey":…}).
    formatToken(
      "1password-service-account-token",
      "1Password service account token found in source code",
      "ops_eyJ[A-Za-z0-9+/]{250,}={0,3}",
      ["ops_"],
      { min_entropy: 4 },
    ),
  ],
  suggestions: [
    "Revoke the token now (Okta API tokens, Authress service clients, 1Password service accounts; regenerate a leaked 1Password Secret Key from the account) and load the new one from the environment or a secrets manager at run time.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("identity-provider-tokens"),
  settings: builtinSettings(),
};
