import { SECRETS_CATEGORY } from "../policy.js";
import { APPLICATION_FAMILIES } from "./providers/applications.js";
import { FAM9AF_FAMILIES } from "./providers/fam9af.js";
import { FAMAF_FAMILIES } from "./providers/famaf.js";
import { FAMAC_FAMILIES } from "./providers/famac.js";
import { FAMAC2_FAMILIES } from "./providers/famac2.js";
import { FAMAF2_FAMILIES } from "./providers/famaf2.js";
import { FAM9GO_FAMILIES } from "./providers/fam9go.js";
import { FAMDK_FAMILIES } from "./providers/famdk.js";
import { FAMGO_FAMILIES } from "./providers/famgo.js";
import { FAMLR_FAMILIES } from "./providers/famlr.js";
import { FAMLR2_FAMILIES } from "./providers/famlr2.js";
import { FAMPZ_FAMILIES } from "./providers/fampz.js";
import { FAMSZ_FAMILIES } from "./providers/famsz.js";
import { FAMSZ2_FAMILIES } from "./providers/famsz2.js";
import { FAM9PZ_FAMILIES } from "./providers/fam9pz.js";
import { FAM10SZ_FAMILIES } from "./providers/fam10sz.js";
import { FAM10AE_FAMILIES } from "./providers/fam10ae.js";
import { FAM10FL_FAMILIES } from "./providers/fam10fl.js";
import { FAM10MR_FAMILIES } from "./providers/fam10mr.js";
import { CREDENTIAL_FILE_RULES } from "./providers/files.js";
import { INFRASTRUCTURE_FAMILIES } from "./providers/infrastructure.js";
import { PAYMENT_AND_AI_FAMILIES } from "./providers/money.js";
import { PLATFORM_FAMILIES } from "./providers/platforms.js";
import { SERVICE_FAMILIES } from "./providers/services.js";
import { providerRule } from "./tokenRules.js";
import { type BuiltinPolicy, builtinSettings, docs, SECRET_CLAIMS, SECRET_FRAMEWORKS } from "./types.js";

/** Every provider family of this policy, each from its provider's documentation (`docs`). */
export const PROVIDER_FAMILIES = [
  ...INFRASTRUCTURE_FAMILIES,
  ...SERVICE_FAMILIES,
  ...PAYMENT_AND_AI_FAMILIES,
  ...PLATFORM_FAMILIES,
  ...APPLICATION_FAMILIES,
  ...FAMAF_FAMILIES,
  ...FAMAF2_FAMILIES,
  ...FAMGO_FAMILIES,
  ...FAMPZ_FAMILIES,
  ...FAMAC_FAMILIES,
  ...FAMDK_FAMILIES,
  ...FAMLR_FAMILIES,
  ...FAMSZ_FAMILIES,
  ...FAMAC2_FAMILIES,
  ...FAMLR2_FAMILIES,
  ...FAMSZ2_FAMILIES,
  ...FAM9GO_FAMILIES,
  ...FAM9PZ_FAMILIES,
  ...FAM9AF_FAMILIES,
  ...FAM10SZ_FAMILIES,
  ...FAM10AE_FAMILIES,
  ...FAM10FL_FAMILIES,
  ...FAM10MR_FAMILIES,
];

export const providerTokens: BuiltinPolicy = {
  id: "provider-tokens",
  name: "Provider tokens",
  description:
    "Detects credentials of further providers by the formats they document: self-identifying tokens by their prefix (Tailscale, Doppler, Buildkite, Supabase, dbt Cloud, Figma, xAI, OpenRouter…), and keys whose shape is generic (32 or 40 hexadecimal characters, a UUID) only where the provider is named just before them, in any syntax: an assignment, JSON, YAML, XML, a command-line flag, a URL parameter, a header or a log line.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [...PROVIDER_FAMILIES.map(providerRule), ...CREDENTIAL_FILE_RULES],
  suggestions: [
    "Revoke the credential in the provider's console (each rule's documentation link says where), issue a new one, and read it from the environment or a secret store instead of the source.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("provider-tokens"),
  settings: builtinSettings(),
};
