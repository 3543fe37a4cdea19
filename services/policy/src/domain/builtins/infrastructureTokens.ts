import { builtinSettings, docs, SECRET_FRAMEWORKS, TOKEN_END, type BuiltinPolicy } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";

export const infrastructureTokens: BuiltinPolicy = {
  id: "infrastructure-tokens",
  name: "Infrastructure tokens",
  description: "Detects HashiCorp Vault service and batch tokens, Terraform Cloud / Enterprise API tokens, Pulumi access tokens and Doppler service tokens.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    {
      id: "vault-service-token",
      type: "regex",
      value: String.raw`\b(hvs\.[A-Za-z0-9_-]{24,})${TOKEN_END}`,
      message: "HashiCorp Vault service token found in source code",
      redact_group: 1,
      keywords: ["hvs."],
    },
    {
      id: "vault-batch-token",
      type: "regex",
      value: String.raw`\b(hvb\.[A-Za-z0-9_-]{24,})${TOKEN_END}`,
      message: "HashiCorp Vault batch token found in source code",
      redact_group: 1,
      keywords: ["hvb."],
    },
    {
      id: "terraform-cloud-token",
      type: "regex",
      value: String.raw`\b([A-Za-z0-9]+\.atlasv1\.[A-Za-z0-9_=-]{60,70})(?:[^A-Za-z0-9_=-]|$)`,
      message: "Terraform Cloud / Enterprise API token found in source code",
      redact_group: 1,
      keywords: ["atlasv1"],
    },
    {
      id: "pulumi-access-token",
      type: "regex",
      value: String.raw`\bpul-[a-f0-9]{40}\b`,
      message: "Pulumi access token found in source code",
      keywords: ["pul-"],
    },
    {
      id: "doppler-service-token",
      type: "regex",
      value: String.raw`\bdp\.(?:pt|st(?:\.[a-z0-9_-]{1,64})?|sa|ct|scim|audit)\.[A-Za-z0-9]{40,44}\b`,
      message: "Doppler token found in source code",
      keywords: ["dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."],
    },
  ],
  suggestions: [
    "Revoke the token now (vault token revoke, the Terraform Cloud / Pulumi / Doppler console) and have the workload obtain short-lived tokens at run time (Vault auth methods, OIDC workload identity in CI).",
  ],
  documentation_url: docs("infrastructure-tokens"),
  settings: builtinSettings(),
};
