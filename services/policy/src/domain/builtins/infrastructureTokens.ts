import {
  type BuiltinPolicy,
  builtinSettings,
  docs,
  paths,
  SECRET_CLAIMS,
  SECRET_FRAMEWORKS,
  TOKEN_END,
} from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";
import { formatToken, namedSecret } from "./tokenRules.js";

export const infrastructureTokens: BuiltinPolicy = {
  id: "infrastructure-tokens",
  name: "Infrastructure tokens",
  description:
    "Detects HashiCorp Vault tokens (service, batch, legacy), Terraform Cloud / Enterprise API tokens, Pulumi access tokens, Doppler tokens, OpenShift user tokens, data in Kubernetes Secret manifests and Defined Networking (Nebula) API tokens.",
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
    // Before Vault 1.10 service tokens were `s.` and 24 characters: too short and common a shape to
    // report anywhere, so only where it is assigned to a Vault token's name.
    namedSecret(
      "vault-legacy-token",
      "HashiCorp Vault token (pre-1.10 format) found in source code",
      String.raw`vault[_.-]?token|x-vault-token|token`,
      String.raw`s\.[A-Za-z0-9]{24}`,
      ["s."],
      {
        min_entropy: 3.5,
        // Random base62 has both cases and digits; one case only is a word or a constant.
        allowlist: [String.raw`^s\.(?:[A-Z0-9]+|[a-z0-9]+|[A-Za-z]+)$`],
      },
    ),
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
      min_entropy: 3,
      message: "Doppler token found in source code",
      keywords: ["dp.pt.", "dp.st.", "dp.sa.", "dp.ct.", "dp.scim.", "dp.audit."],
    },
    formatToken(
      "openshift-user-token",
      "OpenShift user (OAuth access) token found in source code",
      "sha256~[A-Za-z0-9_-]{43}",
      ["sha256~"],
      { min_entropy: 3.5 },
    ),
    {
      id: "kubernetes-secret-data",
      type: "regex",
      // The first value under `data:` in a manifest of kind Secret (base64, possibly on the line
      // after a `|` or `>` block indicator, after comment lines). stringData, templated values
      // ({{ .Values.x }}) and empty values are not secrets written down.
      value: String.raw`(?im)^[ \t]*data:[ \t]*\r?\n(?:[ \t]*#[^\n]*\n)*[ \t]+[\w.-]+:[ \t]*(?:[|>][-+]?[ \t]*\r?\n[ \t]*)?["']?([a-z0-9+/]{10,}={0,3})["']?[ \t]*$`,
      message: "Kubernetes Secret manifest with its data (base64, not encrypted) found in source code",
      redact_group: 1,
      keywords: ["secret"],
      paths: paths("yaml"),
      file_requires: [String.raw`(?i)^[ \t]*kind:[ \t]*["']?secret["']?[ \t]*$`],
    },
    formatToken(
      "defined-networking-api-token",
      "Defined Networking (managed Nebula) API token found in source code",
      "dnkey-[A-Za-z0-9=_-]{26}-[A-Za-z0-9=_-]{52}",
      ["dnkey-"],
    ),
  ],
  suggestions: [
    "Revoke the token now (vault token revoke, the Terraform Cloud / Pulumi / Doppler / Defined Networking console, oc delete oauthaccesstoken) and have the workload obtain short-lived tokens at run time (Vault auth methods, OIDC workload identity in CI); keep Kubernetes Secrets out of the repository (Sealed Secrets, SOPS, External Secrets).",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("infrastructure-tokens"),
  settings: builtinSettings(),
};
