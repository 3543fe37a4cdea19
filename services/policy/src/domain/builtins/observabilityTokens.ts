import { SECRETS_CATEGORY } from "../policy.js";
import { formatToken, namedSecret } from "./tokenRules.js";
import { type BuiltinPolicy, builtinSettings, docs, SECRET_CLAIMS, SECRET_FRAMEWORKS } from "./types.js";

const NEW_RELIC = String.raw`new[_.-]?relic`;
// Case-sensitive: Sumo, sumo or SUMO, not sumOf / sumObj.
const SUMO = "(?-i:[Ss]umo|SUMO)";

export const observabilityTokens: BuiltinPolicy = {
  id: "observability-tokens",
  name: "Observability tokens",
  description:
    "Detects API keys and tokens of monitoring, logging and error-tracking services: Datadog, Grafana (Cloud, service accounts, legacy API keys), New Relic, Sentry, Sumo Logic and Dynatrace. With them anyone can read your telemetry, which often carries personal data and internal addresses, or flood and silence your alerting.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    namedSecret(
      "datadog-api-or-app-key",
      "Datadog API or application key found in source code",
      String.raw`datadog|dd[_.-]?(?:api|app(?:lication)?)[_.-]?key`,
      "[A-Za-z0-9]{32}|[A-Za-z0-9]{40}",
      ["datadog", "dd_api", "dd_app", "dd-api", "dd-app", "dd.api", "dd.app"],
      { min_entropy: 3 },
    ),
    formatToken(
      "grafana-cloud-api-token",
      "Grafana Cloud access policy token found in source code",
      "glc_[A-Za-z0-9+/]{32,400}={0,3}",
      ["glc_"],
      { min_entropy: 3 },
    ),
    formatToken(
      "grafana-service-account-token",
      "Grafana service account token found in source code",
      "glsa_[A-Za-z0-9]{32}_[A-Fa-f0-9]{8}",
      ["glsa_"],
      { min_entropy: 3 },
    ),
    // Legacy API keys: base64 of `{"k":"…","n":"…","id":…}`.
    formatToken(
      "grafana-api-key",
      "Grafana API key (legacy) found in source code",
      "eyJrIjoi[A-Za-z0-9]{70,400}={0,3}",
      ["eyjrijoi"],
      { min_entropy: 3 },
    ),
    formatToken("new-relic-user-key", "New Relic user API key found in source code", "NRAK-[A-Za-z0-9]{27}", ["nrak-"]),
    formatToken("new-relic-insert-key", "New Relic insert key found in source code", "NRII-[A-Za-z0-9-]{32}", [
      "nrii-",
    ]),
    formatToken(
      "new-relic-browser-api-token",
      "New Relic browser API token found in source code",
      "NRJS-[a-f0-9]{19}",
      ["nrjs-"],
    ),
    formatToken("new-relic-license-key", "New Relic ingest license key found in source code", "[a-f0-9]{36}NRAL", [
      "nral",
    ]),
    namedSecret(
      "new-relic-user-api-id",
      "New Relic user API id found in source code",
      NEW_RELIC,
      "[A-Za-z0-9]{64}",
      ["newrelic", "new_relic", "new-relic", "new.relic"],
      { min_entropy: 3 },
    ),
    formatToken(
      "sentry-user-token",
      "Sentry user auth token found in source code",
      "sntryu_[a-f0-9]{64}",
      ["sntryu_"],
      { min_entropy: 3.5 },
    ),
    // `sntrys_<base64 JSON of iat, url, region_url, org>_<43-character secret>`.
    {
      id: "sentry-org-token",
      type: "regex",
      value: String.raw`\b(sntrys_eyJpYXQiO[A-Za-z0-9+/]{10,400}={0,2}_[A-Za-z0-9+/]{43})(?:[^A-Za-z0-9+/]|$)`,
      message: "Sentry organization auth token found in source code",
      redact_group: 1,
      keywords: ["sntrys_eyjpyxqio"],
      min_entropy: 4.5,
      checks: ["sentry-org-token"],
    },
    namedSecret(
      "sentry-auth-token",
      "Sentry auth token (legacy, 64 hexadecimal characters) found in source code",
      "sentry",
      "[a-f0-9]{64}",
      ["sentry"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "sumologic-access-id",
      "Sumo Logic access id found in source code",
      SUMO,
      "su[A-Za-z0-9]{12}",
      ["sumo"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "sumologic-access-key",
      "Sumo Logic access key found in source code",
      SUMO,
      "[A-Za-z0-9]{64}",
      ["sumo"],
      { min_entropy: 3 },
    ),
    formatToken(
      "dynatrace-api-token",
      "Dynatrace API token found in source code",
      String.raw`dt0c01\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{64}`,
      ["dt0c01."],
      { min_entropy: 4 },
    ),
  ],
  suggestions: [
    "Revoke the key in the service's settings now (Datadog organization settings, Grafana Cloud access policies, New Relic API keys, Sentry auth tokens, Sumo Logic access keys, Dynatrace access tokens) and give the agent or CI job a new one from its secret store or environment.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("observability-tokens"),
  settings: builtinSettings(),
};
