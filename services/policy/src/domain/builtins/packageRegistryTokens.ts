import { type BuiltinPolicy, builtinSettings, docs, SECRET_CLAIMS, SECRET_FRAMEWORKS, TOKEN_END } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";
import { formatToken, namedSecret } from "./tokenRules.js";

const JFROG = String.raw`jfrog|artifactory|bintray|xray`;
const JFROG_KEYWORDS = ["jfrog", "artifactory", "bintray", "xray"];
// Sidekiq Pro / Enterprise gem server credentials: `<8 hex>:<8 hex>`.
const CONTRIBSYS_CREDENTIAL = "[a-f0-9]{8}:[a-f0-9]{8}";

export const packageRegistryTokens: BuiltinPolicy = {
  id: "package-registry-tokens",
  name: "Package registry tokens",
  description:
    "Detects publishing and pull tokens of npm (also in .npmrc), PyPI, RubyGems, NuGet (API keys, nuget.config passwords), Docker Hub, JFrog Artifactory, Clojars and the Sidekiq Pro / Enterprise gem server, which let anyone publish code under your name or pull your private packages.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    {
      id: "npm-access-token",
      type: "regex",
      value: String.raw`\bnpm_[A-Za-z0-9]{36}\b`,
      message: "npm access token found in source code",
      keywords: ["npm_"],
      checks: ["npm-crc32"],
    },
    {
      id: "npmrc-auth-token",
      type: "regex",
      // `//registry.npmjs.org/:_authToken=...` and the legacy `_auth=` (base64 user:password).
      value: String.raw`:_auth(?:Token)?\s*=\s*["']?([A-Za-z0-9+/=_.-]{16,})`,
      message: "Registry credential in an .npmrc file",
      redact_group: 1,
      keywords: ["_auth"],
    },
    {
      id: "pypi-upload-token",
      type: "regex",
      value: String.raw`\b(pypi-AgEIcHlwaS5vcmc[A-Za-z0-9_-]{50,})${TOKEN_END}`,
      message: "PyPI upload token found in source code",
      redact_group: 1,
      keywords: ["pypi-ageichlwas5vcmc"],
    },
    {
      id: "rubygems-api-key",
      type: "regex",
      value: String.raw`\brubygems_[a-f0-9]{48}\b`,
      message: "RubyGems API key found in source code",
      keywords: ["rubygems_"],
    },
    {
      id: "nuget-api-key",
      type: "regex",
      value: String.raw`\boy2[a-z0-9]{43}\b`,
      message: "NuGet API key found in source code",
      keywords: ["nuget"],
    },
    {
      id: "docker-hub-token",
      type: "regex",
      value: String.raw`\b(dckr_(?:pat|oat)_[A-Za-z0-9_-]{27,64})${TOKEN_END}`,
      message: "Docker Hub access token found in source code",
      redact_group: 1,
      keywords: ["dckr_pat_", "dckr_oat_"],
    },
    {
      id: "nuget-config-password",
      type: "regex",
      // A package source's password in clear text: <add key="ClearTextPassword" value="…" />.
      value: String.raw`(?i)<add\s+key="(?:ClearText)?Password"\s+value="([^"]{8,})"\s*/>`,
      message: "Package source password in clear text in a nuget.config file",
      redact_group: 1,
      keywords: ["<add key="],
      paths: [String.raw`(?i)(?:^|/)nuget\.config$`],
      min_entropy: 1,
      // An environment variable reference (%NUGET_PASSWORD%), and the sample passwords of
      // Microsoft's nuget.config reference page.
      allowlist: [String.raw`^%[^%\s]+%$`, String.raw`^(?:33f!!lloppa|hal\+9ooo_da!sY)$`],
    },
    formatToken(
      "artifactory-api-key",
      "JFrog Artifactory API key found in source code",
      "AKCp[A-Za-z0-9]{69}",
      ["akcp"],
      { min_entropy: 4.5 },
    ),
    // Reference tokens: base64 of "ref…".
    formatToken(
      "artifactory-reference-token",
      "JFrog Artifactory reference token found in source code",
      "cmVmd[A-Za-z0-9]{59}",
      ["cmvmd"],
      { min_entropy: 4.5 },
    ),
    namedSecret("jfrog-api-key", "JFrog API key found in source code", JFROG, "[A-Za-z0-9]{73}", JFROG_KEYWORDS, {
      min_entropy: 3,
    }),
    namedSecret(
      "jfrog-identity-token",
      "JFrog identity (access) token found in source code",
      JFROG,
      "[A-Za-z0-9]{64}",
      JFROG_KEYWORDS,
      { min_entropy: 3 },
    ),
    formatToken(
      "clojars-deploy-token",
      "Clojars deploy token found in source code",
      "(?i:CLOJARS_)[A-Za-z0-9]{60}",
      ["clojars_"],
      { min_entropy: 2 },
    ),
    namedSecret(
      "sidekiq-gem-server-credential",
      "Sidekiq Pro / Enterprise gem server credential found in source code",
      "BUNDLE_(?:ENTERPRISE|GEMS)__CONTRIBSYS__COM",
      CONTRIBSYS_CREDENTIAL,
      ["bundle_enterprise__contribsys__com", "bundle_gems__contribsys__com"],
    ),
    {
      id: "sidekiq-gem-server-url",
      type: "regex",
      value: String.raw`(?i)\bhttps?://(${CONTRIBSYS_CREDENTIAL})@(?:gems|enterprise)\.contribsys\.com(?:[/#?:]|$)`,
      message: "Sidekiq Pro / Enterprise gem server URL with its credential found in source code",
      redact_group: 1,
      keywords: ["gems.contribsys.com", "enterprise.contribsys.com"],
    },
  ],
  suggestions: [
    "Revoke the token in the registry's settings now and check the package's recent releases; publish from CI with trusted publishing (OIDC) or a scoped token stored as a CI secret, and reference it as ${NPM_TOKEN} in .npmrc.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("package-registry-tokens"),
  settings: builtinSettings(),
};
