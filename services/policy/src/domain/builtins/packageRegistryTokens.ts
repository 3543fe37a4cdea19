import { builtinSettings, docs, SECRET_FRAMEWORKS, TOKEN_END, type BuiltinPolicy } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";

export const packageRegistryTokens: BuiltinPolicy = {
  id: "package-registry-tokens",
  name: "Package registry tokens",
  description: "Detects publishing and pull tokens of npm (also in .npmrc), PyPI, RubyGems, NuGet and Docker Hub, which let anyone publish code under your name.",
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
  ],
  suggestions: [
    "Revoke the token in the registry's settings now and check the package's recent releases; publish from CI with trusted publishing (OIDC) or a scoped token stored as a CI secret, and reference it as ${NPM_TOKEN} in .npmrc.",
  ],
  documentation_url: docs("package-registry-tokens"),
  settings: builtinSettings(),
};
