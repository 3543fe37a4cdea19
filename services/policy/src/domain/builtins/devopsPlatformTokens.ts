import { SECRETS_CATEGORY } from "../policy.js";
import { formatToken, namedSecret } from "./tokenRules.js";
import { type BuiltinPolicy, builtinSettings, docs, SECRET_CLAIMS, SECRET_FRAMEWORKS, TOKEN_END } from "./types.js";

export const devopsPlatformTokens: BuiltinPolicy = {
  id: "devops-platform-tokens",
  name: "CI/CD and developer platform tokens",
  description:
    "Detects tokens of CI/CD, code quality and developer platforms: Drone, Travis CI, Harness, Octopus Deploy, Codecov, SonarQube / SonarCloud, Snyk, Sourcegraph, Infracost, Prefect, LaunchDarkly, Postman, ReadMe and RapidAPI. With a pipeline's token anyone can run code in your pipelines or read their secrets.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS, "soc2:CC8.1"],
  patterns: [
    namedSecret(
      "droneci-access-token",
      "Drone CI access token found in source code",
      String.raw`drone[_.-]?(?:ci)?`,
      "[A-Za-z0-9]{32}",
      ["drone"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "travisci-access-token",
      "Travis CI access token found in source code",
      "travis",
      "[A-Za-z0-9]{22}",
      ["travis"],
      { min_entropy: 3 },
    ),
    formatToken(
      "harness-api-key",
      "Harness personal or service account token found in source code",
      String.raw`(?:pat|sat)\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9]{24}\.[A-Za-z0-9]{20}`,
      ["pat.", "sat."],
      { min_entropy: 3 },
    ),
    // Random keys have digits; letters alone are a word (`API-DOCUMENTATION…`).
    formatToken("octopus-deploy-api-key", "Octopus Deploy API key found in source code", "API-[A-Z0-9]{26}", ["api-"], {
      min_entropy: 3,
      allowlist: ["^API-[A-Z]+$"],
    }),
    namedSecret(
      "codecov-access-token",
      "Codecov upload or access token found in source code",
      "codecov",
      "[A-Za-z0-9-]{32,36}",
      ["codecov"],
      { min_entropy: 3 },
    ),
    // SonarQube user (squ_), project analysis (sqp_) and global analysis (sqa_) tokens, and the
    // older 40-hex tokens set as sonar.login / SONAR_TOKEN.
    formatToken(
      "sonar-api-token",
      "SonarQube / SonarCloud token found in source code",
      "sq[upa]_[a-f0-9]{40}",
      ["squ_", "sqp_", "sqa_"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "sonar-login-token",
      "SonarQube / SonarCloud token (sonar.login, SONAR_TOKEN) found in source code",
      String.raw`sonar[_.-]?(?:login|token|auth[_.-]?token)`,
      String.raw`(?:sq[upa]_)?[A-Za-z0-9_=-]{40}`,
      ["sonar"],
    ),
    namedSecret(
      "snyk-api-token",
      "Snyk API token found in source code",
      String.raw`snyk[_.-]?(?:(?:api|oauth)[_.-]?)?(?:key|token)`,
      "[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}",
      ["snyk"],
    ),
    formatToken(
      "sourcegraph-access-token",
      "Sourcegraph access token found in source code",
      "sgp_(?:[a-fA-F0-9]{16}|local)_[a-fA-F0-9]{40}|sgp_[a-fA-F0-9]{40}",
      ["sgp_"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "sourcegraph-legacy-access-token",
      "Sourcegraph access token (legacy, 40 hexadecimal characters) found in source code",
      "sourcegraph|src[_.-]?access[_.-]?token",
      "[a-fA-F0-9]{40}",
      ["sourcegraph", "src_access", "src-access"],
      { min_entropy: 3 },
    ),
    {
      id: "infracost-api-token",
      type: "regex",
      // Not after a `.` or `/`: `favicon.ico-<hash>.png` is a file name.
      value: String.raw`(?:^|[^A-Za-z0-9_./-])(ico-[A-Za-z0-9]{32})${TOKEN_END}`,
      message: "Infracost API token found in source code",
      redact_group: 1,
      keywords: ["ico-"],
      min_entropy: 3,
    },
    formatToken("prefect-api-token", "Prefect Cloud API key found in source code", "pnu_[A-Za-z0-9]{36}", ["pnu_"], {
      min_entropy: 2,
    }),
    namedSecret(
      "launchdarkly-access-token",
      "LaunchDarkly access token or SDK key found in source code",
      "launch[_.-]?darkly|ld[_.-]?(?:sdk|api|access)[_.-]?(?:key|token)",
      "[A-Za-z0-9_=-]{40}",
      ["launchdarkly", "launch_darkly", "launch-darkly", "ld_sdk", "ld_api", "ld_access"],
      { min_entropy: 3 },
    ),
    formatToken(
      "postman-api-token",
      "Postman API key found in source code",
      "PMAK-[a-fA-F0-9]{24}-[a-fA-F0-9]{34}",
      ["pmak-"],
      { min_entropy: 3 },
    ),
    formatToken("readme-api-token", "ReadMe API key found in source code", "rdme_[a-z0-9]{70}", ["rdme_"], {
      min_entropy: 2,
    }),
    namedSecret(
      "rapidapi-access-token",
      "RapidAPI application key found in source code",
      String.raw`rapid[_.-]?api`,
      "[A-Za-z0-9_-]{50}",
      ["rapidapi", "rapid_api", "rapid-api"],
      { min_entropy: 3 },
    ),
  ],
  suggestions: [
    "Revoke the token in the platform's settings now and store its replacement as a masked secret of the CI system or a secrets manager, referenced by name from the pipeline.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("devops-platform-tokens"),
  settings: builtinSettings(),
};
