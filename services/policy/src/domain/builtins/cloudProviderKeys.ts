import { type BuiltinPolicy, builtinSettings, docs, SECRET_CLAIMS, SECRET_FRAMEWORKS, TOKEN_END } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";
import { formatToken, namedSecret } from "./tokenRules.js";
import { AZURITE_ACCOUNT_KEY, exactly } from "./emulatorKeys.js";

// Google API keys that Google publishes in its own open-source SDKs, samples and browser builds
// (restricted to Google's own projects): public by design, not leaks.
const PUBLIC_GOOGLE_API_KEYS = [
  "AIzaSyA4UrcGxgwQFTfaI3no3t7Lt1sjmdnP5sQ",
  "AIzaSyA5_iVawFQ8ABuTZNUdcwERLJv_a_p4wtM",
  "AIzaSyA8vmApnrHNFE0bApF4hoZ11srVL_n0nvY",
  "AIzaSyANUvH9H9BsUccjsu2pCmEkOPjjaXeDQgY",
  "AIzaSyASWm6HmTMdYWpgMnjRBjxcQ9CKctWmLd4",
  "AIzaSyAdOS2zB6NCsk1pCdZ4-P6GBdi_UUPwX7c",
  "AIzaSyAnLA7NfeLquW1tJFpx_eQCxoX-oo6YyIs",
  "AIzaSyB8qGxt4ec15vitgn44duC5ucxaOi4FmqE",
  "AIzaSyBF2RrAIm4a0mO64EShQfqfd2AFnzAvvuU",
  "AIzaSyBcE-OOIbhjyR83gm4r2MFCu4MJmprNXsw",
  "AIzaSyCkEhVjf3pduRDt6d1yKOMitrUEke8agEM",
  "AIzaSyD3asb-2pEZVqMkmL6M9N6nHZRR_znhrh0",
  "AIzaSyDMAScliyLx7F0NPDEJi1QmyCgHIAODrlU",
  "AIzaSyDSb51JiIcB6OJpwwMicseKRhhrOq1cS7g",
  "AIzayDNSXIbFmlXbIE6mCzDLQAqITYefhixbX4A",
  // The documentation placeholder.
  "AIzaSyabcdefghijklmnopqrstuvwxyz1234567",
];

export const cloudProviderKeys: BuiltinPolicy = {
  id: "cloud-provider-keys",
  name: "Cloud provider keys",
  description:
    "Detects Google Cloud (API keys, OAuth client secrets, service account keys), Azure (storage account keys, shared access keys, SAS signatures, Entra ID client secrets), DigitalOcean (personal access, OAuth and refresh tokens) and Alibaba Cloud (AccessKey id and secret) credentials.",
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
      min_entropy: 4,
      allowlist: [exactly(...PUBLIC_GOOGLE_API_KEYS)],
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
      // Azurite's published key opens only the emulator.
      allowlist: [exactly(AZURITE_ACCOUNT_KEY)],
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
    formatToken(
      "digitalocean-personal-access-token",
      "DigitalOcean personal access token found in source code",
      "dop_v1_[a-f0-9]{64}",
      ["dop_v1_"],
      { min_entropy: 3 },
    ),
    formatToken(
      "digitalocean-oauth-access-token",
      "DigitalOcean OAuth access token found in source code",
      "doo_v1_[a-f0-9]{64}",
      ["doo_v1_"],
      { min_entropy: 3 },
    ),
    formatToken(
      "digitalocean-oauth-refresh-token",
      "DigitalOcean OAuth refresh token found in source code",
      "dor_v1_[a-f0-9]{64}",
      ["dor_v1_"],
      { min_entropy: 3 },
    ),
    {
      id: "alibaba-access-key-id",
      type: "regex",
      value: String.raw`\bLTAI[A-Za-z0-9]{20}\b`,
      message: "Alibaba Cloud AccessKey id found in source code",
      keywords: ["ltai"],
    },
    namedSecret(
      "alibaba-access-key-secret",
      "Alibaba Cloud AccessKey secret found in source code",
      String.raw`alibaba|aliyun|access[_.-]?key[_.-]?secret`,
      "[A-Za-z0-9]{30}",
      ["alibaba", "aliyun", "accesskeysecret", "access_key_secret"],
      { min_entropy: 3 },
    ),
  ],
  suggestions: [
    "Revoke or regenerate this key in the cloud console now, then use workload identity (GCP service account impersonation, Azure managed identities) or a secrets manager instead of keys in source code.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("cloud-provider-keys"),
  settings: builtinSettings(),
};
