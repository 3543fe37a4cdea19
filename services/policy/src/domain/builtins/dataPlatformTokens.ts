import { SECRETS_CATEGORY } from "../policy.js";
import { formatToken, namedSecret } from "./tokenRules.js";
import { type BuiltinPolicy, builtinSettings, docs, SECRET_CLAIMS, SECRET_FRAMEWORKS } from "./types.js";

// PlanetScale's token body: letters, digits and `_=.-`.
const PSCALE_BODY = String.raw`[A-Za-z0-9_=.-]{32,64}`;

export const dataPlatformTokens: BuiltinPolicy = {
  id: "data-platform-tokens",
  name: "Data platform tokens",
  description:
    "Detects credentials of hosted databases and data platforms: Databricks personal access tokens, ClickHouse Cloud API secrets, PlanetScale service tokens, OAuth tokens and database passwords, Confluent Cloud API keys and secrets, and Looker API client ids and secrets. They reach the data itself.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    formatToken(
      "databricks-api-token",
      "Databricks personal access token found in source code",
      "dapi[a-f0-9]{32}(?:-[0-9])?",
      ["dapi"],
      { min_entropy: 3 },
    ),
    formatToken(
      "clickhouse-cloud-api-secret-key",
      "ClickHouse Cloud API secret key found in source code",
      "4b1d[A-Za-z0-9]{38}",
      ["4b1d"],
      { min_entropy: 3 },
    ),
    formatToken(
      "planetscale-service-token",
      "PlanetScale service token found in source code",
      `pscale_tkn_${PSCALE_BODY}`,
      ["pscale_tkn_"],
      { min_entropy: 3 },
    ),
    formatToken(
      "planetscale-oauth-token",
      "PlanetScale OAuth token found in source code",
      `pscale_oauth_${PSCALE_BODY}`,
      ["pscale_oauth_"],
      { min_entropy: 3 },
    ),
    formatToken(
      "planetscale-password",
      "PlanetScale database password found in source code",
      `pscale_pw_${PSCALE_BODY}`,
      ["pscale_pw_"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "confluent-api-key",
      "Confluent Cloud API key found in source code",
      "confluent",
      "[A-Za-z0-9]{16}",
      ["confluent"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "confluent-api-secret",
      "Confluent Cloud API secret found in source code",
      "confluent",
      "[A-Za-z0-9+/]{64}",
      ["confluent"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "looker-client-id",
      "Looker API client id found in source code",
      "looker",
      "[A-Za-z0-9]{20}",
      ["looker"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "looker-client-secret",
      "Looker API client secret found in source code",
      "looker",
      "[A-Za-z0-9]{24}",
      ["looker"],
      { min_entropy: 3 },
    ),
  ],
  suggestions: [
    "Revoke the token or rotate the password in the platform's console now (Databricks user settings, ClickHouse Cloud API keys, PlanetScale service tokens and passwords, Confluent Cloud API keys, Looker API3 keys) and load the new one from a secrets manager or the environment.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("data-platform-tokens"),
  settings: builtinSettings(),
};
