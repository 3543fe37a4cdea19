import { builtinSettings, docs, SECRET_FRAMEWORKS, TOKEN_END, type BuiltinPolicy } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";

export const cloudProviderKeys: BuiltinPolicy = {
  id: "cloud-provider-keys",
  name: "Cloud provider keys",
  description:
    "Detects Google Cloud (API keys, OAuth client secrets, service account keys), Azure (storage account keys, shared access keys, SAS signatures, Entra ID client secrets), DigitalOcean and Alibaba Cloud credentials.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    {
      id: "google-api-key",
      type: "regex",
      value: String.raw`\b(AIza[0-9A-Za-z_-]{35})${TOKEN_END}`,
      message: "Google API key found in source code",
      redact_group: 1,
      keywords: ["aiza"],
    },
    {
      id: "google-oauth-client-secret",
      type: "regex",
      value: String.raw`\b(GOCSPX-[A-Za-z0-9_-]{28})${TOKEN_END}`,
      message: "Google OAuth client secret found in source code",
      redact_group: 1,
      keywords: ["gocspx-"],
    },
    {
      id: "gcp-service-account-key",
      type: "regex",
      // A service account key file: the id of its private key, in a file that says it is one.
      // The private key itself is reported by private-keys.
      value: String.raw`"private_key_id"\s*:\s*"([a-f0-9]{40})"`,
      message: "Google Cloud service account key file found in source code",
      redact_group: 1,
      keywords: ["service_account"],
    },
    {
      id: "azure-storage-account-key",
      type: "regex",
      value: String.raw`(?i)\bAccountKey\s*=\s*([A-Za-z0-9+/]{86}==)`,
      message: "Azure storage account key (connection string) found in source code",
      redact_group: 1,
      keywords: ["accountkey"],
    },
    {
      id: "azure-shared-access-key",
      type: "regex",
      // Service Bus, Event Hubs and IoT Hub connection strings.
      value: String.raw`(?i)\bSharedAccessKey\s*=\s*([A-Za-z0-9+/]{43}=)`,
      message: "Azure shared access key (Service Bus, Event Hubs or IoT Hub connection string) found in source code",
      redact_group: 1,
      keywords: ["sharedaccesskey"],
    },
    {
      id: "azure-sas-token",
      type: "regex",
      value: String.raw`(?i)\bsv=\d{4}-\d{2}-\d{2}&[^\s"'<>]*?\bsig=([A-Za-z0-9%+/]{40,}(?:%3D|=){0,2})`,
      message: "Azure shared access signature (SAS) found in source code",
      redact_group: 1,
      keywords: ["sig="],
    },
    {
      id: "azure-ad-client-secret",
      type: "regex",
      value: String.raw`([a-zA-Z0-9_~.]{3}\dQ~[a-zA-Z0-9_~.-]{31,34})(?:$|[\\'"\x60\s<),])`,
      message: "Microsoft Entra ID (Azure AD) client secret found in source code",
      redact_group: 1,
      keywords: ["q~"],
    },
    {
      id: "digitalocean-token",
      type: "regex",
      value: String.raw`\bdo[opr]_v1_[a-f0-9]{64}\b`,
      message: "DigitalOcean access token found in source code",
      keywords: ["dop_v1_", "doo_v1_", "dor_v1_"],
    },
    {
      id: "alibaba-access-key-id",
      type: "regex",
      value: String.raw`\bLTAI[A-Za-z0-9]{20}\b`,
      message: "Alibaba Cloud AccessKey id found in source code",
      keywords: ["ltai"],
    },
  ],
  suggestions: [
    "Revoke or regenerate this key in the cloud console now, then use workload identity (GCP service account impersonation, Azure managed identities) or a secrets manager instead of keys in source code.",
  ],
  documentation_url: docs("cloud-provider-keys"),
  settings: builtinSettings(),
};
