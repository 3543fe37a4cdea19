import { type BuiltinPolicy, builtinSettings, docs, SECRET_CLAIMS, SECRET_FRAMEWORKS, TOKEN_END } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";
import { formatToken, namedSecret } from "./tokenRules.js";

// GitLab's newer tokens share one shape after their prefix.
const GITLAB_BODY = "[A-Za-z0-9_-]{20,64}";

export const sourceControlTokens: BuiltinPolicy = {
  id: "source-control-tokens",
  name: "Source control tokens",
  description:
    "Detects GitHub tokens (classic, fine-grained, OAuth, app, refresh; checksum verified), GitLab tokens (personal, routable, pipeline trigger, runner, deploy, CI/CD job, feed, feature flag, incoming mail, Kubernetes agent, OAuth application, SCIM, runner registration, session cookies), Bitbucket OAuth consumer keys and secrets, and Atlassian (Jira, Confluence) API tokens.",
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
      checks: ["github-crc32"],
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
      checks: ["github-crc32"],
    },
    {
      id: "github-app-token",
      type: "regex",
      value: String.raw`\b(?:ghu|ghs)_[A-Za-z0-9]{36}\b`,
      message: "GitHub App user-to-server or installation token found in source code",
      keywords: ["ghu_", "ghs_"],
      checks: ["github-crc32"],
    },
    {
      id: "github-refresh-token",
      type: "regex",
      value: String.raw`\bghr_[A-Za-z0-9]{36,76}\b`,
      message: "GitHub refresh token found in source code",
      keywords: ["ghr_"],
      checks: ["github-crc32"],
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
    formatToken(
      "gitlab-cicd-job-token",
      "GitLab CI/CD job token found in source code",
      "glcbt-[A-Za-z0-9]{1,5}_[A-Za-z0-9_-]{20}",
      ["glcbt-"],
      { min_entropy: 3 },
    ),
    formatToken("gitlab-feed-token", "GitLab feed token found in source code", `glft-${GITLAB_BODY}`, ["glft-"], {
      min_entropy: 3,
    }),
    formatToken(
      "gitlab-feature-flag-client-token",
      "GitLab feature flag client token found in source code",
      `glffct-${GITLAB_BODY}`,
      ["glffct-"],
      { min_entropy: 3 },
    ),
    formatToken(
      "gitlab-incoming-mail-token",
      "GitLab incoming mail token found in source code",
      `glimt-${GITLAB_BODY}`,
      ["glimt-"],
      { min_entropy: 3 },
    ),
    formatToken(
      "gitlab-kubernetes-agent-token",
      "GitLab agent for Kubernetes token found in source code",
      "glagent-[A-Za-z0-9_-]{50,64}",
      ["glagent-"],
      { min_entropy: 3 },
    ),
    formatToken(
      "gitlab-oauth-app-secret",
      "GitLab OAuth application secret found in source code",
      "gloas-[A-Za-z0-9_-]{64}",
      ["gloas-"],
      { min_entropy: 3 },
    ),
    formatToken("gitlab-scim-token", "GitLab SCIM token found in source code", `glsoat-${GITLAB_BODY}`, ["glsoat-"], {
      min_entropy: 3,
    }),
    // Runner registration tokens (deprecated): GR1348941 + 20 characters.
    formatToken(
      "gitlab-runner-registration-token",
      "GitLab runner registration token found in source code",
      "GR1348941[A-Za-z0-9_-]{20}",
      ["gr1348941"],
      { min_entropy: 3 },
    ),
    {
      id: "gitlab-session-cookie",
      type: "regex",
      value: String.raw`\b_gitlab_session=([0-9a-z]{32})(?:[^0-9a-z]|$)`,
      message: "GitLab session cookie found in source code",
      redact_group: 1,
      keywords: ["_gitlab_session="],
      min_entropy: 3,
    },
    namedSecret(
      "bitbucket-client-id",
      "Bitbucket OAuth consumer key found in source code",
      "bitbucket",
      "[A-Za-z0-9]{32}",
      ["bitbucket"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "bitbucket-client-secret",
      "Bitbucket OAuth consumer secret found in source code",
      "bitbucket",
      "[A-Za-z0-9=_-]{64}",
      ["bitbucket"],
      { min_entropy: 3 },
    ),
    // Current Atlassian API tokens carry the ATATT3 prefix and a CRC-like 8-hex suffix.
    formatToken(
      "atlassian-api-token",
      "Atlassian (Jira, Confluence) API token found in source code",
      "ATATT3[A-Za-z0-9_=-]{186}",
      ["atatt3"],
      { min_entropy: 3.5 },
    ),
    // Older tokens: 24 characters with no prefix, recognisable only by their name.
    namedSecret(
      "atlassian-legacy-api-token",
      "Atlassian (Jira, Confluence) API token (legacy, 24 characters) found in source code",
      "atlassian|confluence|jira",
      "[A-Za-z0-9]{20}[A-Fa-f0-9]{4}",
      ["atlassian", "confluence", "jira"],
      { min_entropy: 3.5 },
    ),
  ],
  suggestions: [
    "Revoke the token in GitHub, GitLab, Bitbucket or Atlassian settings now and create a new one with the least scopes it needs; in CI use the platform's built-in job token (GITHUB_TOKEN, CI_JOB_TOKEN) or a secret variable instead.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("source-control-tokens"),
  settings: builtinSettings(),
};
