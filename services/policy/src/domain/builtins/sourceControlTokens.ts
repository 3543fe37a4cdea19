import { builtinSettings, docs, SECRET_FRAMEWORKS, TOKEN_END, type BuiltinPolicy } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";

export const sourceControlTokens: BuiltinPolicy = {
  id: "source-control-tokens",
  name: "Source control tokens",
  description: "Detects GitHub tokens (classic, fine-grained, OAuth, app, refresh) and GitLab tokens (personal, pipeline trigger, runner, deploy).",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS, "soc2:CC8.1"],
  patterns: [
    {
      id: "github-classic-token",
      type: "regex",
      value: String.raw`\bghp_[A-Za-z0-9]{36}\b`,
      message: "GitHub personal access token (classic) found in source code",
      keywords: ["ghp_"],
    },
    {
      id: "github-fine-grained-token",
      type: "regex",
      value: String.raw`\bgithub_pat_[A-Za-z0-9_]{82}\b`,
      message: "GitHub fine-grained personal access token found in source code",
      keywords: ["github_pat_"],
    },
    {
      id: "github-oauth-token",
      type: "regex",
      value: String.raw`\bgho_[A-Za-z0-9]{36}\b`,
      message: "GitHub OAuth access token found in source code",
      keywords: ["gho_"],
    },
    {
      id: "github-app-token",
      type: "regex",
      value: String.raw`\b(?:ghu|ghs)_[A-Za-z0-9]{36}\b`,
      message: "GitHub App user-to-server or installation token found in source code",
      keywords: ["ghu_", "ghs_"],
    },
    {
      id: "github-refresh-token",
      type: "regex",
      value: String.raw`\bghr_[A-Za-z0-9]{36,76}\b`,
      message: "GitHub refresh token found in source code",
      keywords: ["ghr_"],
    },
    {
      id: "gitlab-personal-access-token",
      type: "regex",
      // Legacy 20-character tokens and the newer routable ones (longer, with a `.`-separated suffix).
      value: String.raw`\b(glpat-[A-Za-z0-9_-]{20,}(?:\.[0-9a-z]{9})?)${TOKEN_END}`,
      message: "GitLab personal access token found in source code",
      redact_group: 1,
      keywords: ["glpat-"],
    },
    {
      id: "gitlab-pipeline-trigger-token",
      type: "regex",
      value: String.raw`\bglptt-[0-9a-f]{40}\b`,
      message: "GitLab pipeline trigger token found in source code",
      keywords: ["glptt-"],
    },
    {
      id: "gitlab-runner-token",
      type: "regex",
      value: String.raw`\b(glrt-[A-Za-z0-9_-]{20,64})${TOKEN_END}`,
      message: "GitLab runner authentication token found in source code",
      redact_group: 1,
      keywords: ["glrt-"],
    },
    {
      id: "gitlab-deploy-token",
      type: "regex",
      value: String.raw`\b(gldt-[A-Za-z0-9_-]{20,64})${TOKEN_END}`,
      message: "GitLab deploy token found in source code",
      redact_group: 1,
      keywords: ["gldt-"],
    },
  ],
  suggestions: [
    "Revoke the token in GitHub or GitLab settings now and create a new one with the least scopes it needs; in CI use the platform's built-in job token (GITHUB_TOKEN, CI_JOB_TOKEN) or a secret variable instead.",
  ],
  documentation_url: docs("source-control-tokens"),
  settings: builtinSettings(),
};
