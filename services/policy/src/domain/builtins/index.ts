// Built-in policies: defined in code, identical for every organization. Organizations toggle and
// tune them (enabled, severity, settings) through overrides; they cannot delete them.
// One file per policy; every rule has an id unique across all built-ins, and true- and
// false-positive samples under services/policy/fixtures/<policy-id>/.
import { aiApiKeys } from "./aiApiKeys.js";
import { awsCredentials } from "./awsCredentials.js";
import { ciWorkflowSecurity } from "./ciWorkflowSecurity.js";
import { cleartextHttp } from "./cleartextHttp.js";
import { commerceTokens } from "./commerceTokens.js";
import { cloudProviderKeys } from "./cloudProviderKeys.js";
import { commandInjection } from "./commandInjection.js";
import { credentialsInUrls } from "./credentialsInUrls.js";
import { csrfProtectionDisabled } from "./csrfProtectionDisabled.js";
import { cryptoExchangeKeys } from "./cryptoExchangeKeys.js";
import { dangerousEval } from "./dangerousEval.js";
import { dataPlatformTokens } from "./dataPlatformTokens.js";
import { debugModeEnabled } from "./debugModeEnabled.js";
import { devopsPlatformTokens } from "./devopsPlatformTokens.js";
import { dockerfileSecurity } from "./dockerfileSecurity.js";
import { genericSecrets } from "./genericSecrets.js";
import { hardcodedCredentials } from "./hardcodedCredentials.js";
import { hostingPlatformTokens } from "./hostingPlatformTokens.js";
import { identityProviderTokens } from "./identityProviderTokens.js";
import { infrastructureTokens } from "./infrastructureTokens.js";
import { insecureCookie } from "./insecureCookie.js";
import { insecureRandomness } from "./insecureRandomness.js";
import { kubernetesSecurity } from "./kubernetesSecurity.js";
import { ldapInjection, xpathInjection } from "./ldapXpathInjection.js";
import { messagingTokens } from "./messagingTokens.js";
import { observabilityTokens } from "./observabilityTokens.js";
import { packageRegistryTokens } from "./packageRegistryTokens.js";
import { pathTraversal } from "./pathTraversal.js";
import { paymentTokens } from "./paymentTokens.js";
import { permissiveCors } from "./permissiveCors.js";
import { privateKeys } from "./privateKeys.js";
import { providerTokens } from "./providerTokens.js";
import { openRedirect, serverSideRequestForgery } from "./requestForgery.js";
import { saasApiTokens } from "./saasApiTokens.js";
import { socialPlatformTokens } from "./socialPlatformTokens.js";
import { sourceControlTokens } from "./sourceControlTokens.js";
import { sqlInjection } from "./sqlInjection.js";
import { terraformSecurity } from "./terraformSecurity.js";
import { tlsVerificationDisabled } from "./tlsVerificationDisabled.js";
import type { BuiltinPolicy } from "./types.js";
import { unsafeDeserialization } from "./unsafeDeserialization.js";
import { weakCryptography } from "./weakCryptography.js";
import { weakKeySize } from "./weakKeySize.js";
import { xmlExternalEntities } from "./xmlExternalEntities.js";
import { xssSinks } from "./xssSinks.js";

export type { BuiltinPattern, BuiltinPolicy } from "./types.js";

export const BUILTIN_POLICIES: readonly BuiltinPolicy[] = [
  // Secrets
  awsCredentials,
  sourceControlTokens,
  cloudProviderKeys,
  infrastructureTokens,
  packageRegistryTokens,
  hostingPlatformTokens,
  devopsPlatformTokens,
  observabilityTokens,
  dataPlatformTokens,
  identityProviderTokens,
  messagingTokens,
  saasApiTokens,
  paymentTokens,
  commerceTokens,
  socialPlatformTokens,
  cryptoExchangeKeys,
  aiApiKeys,
  providerTokens,
  privateKeys,
  hardcodedCredentials,
  credentialsInUrls,
  genericSecrets,
  // Insecure code
  dangerousEval,
  commandInjection,
  sqlInjection,
  weakCryptography,
  insecureRandomness,
  tlsVerificationDisabled,
  unsafeDeserialization,
  xssSinks,
  permissiveCors,
  cleartextHttp,
  pathTraversal,
  ldapInjection,
  xpathInjection,
  insecureCookie,
  serverSideRequestForgery,
  openRedirect,
  xmlExternalEntities,
  weakKeySize,
  csrfProtectionDisabled,
  // Configuration
  debugModeEnabled,
  dockerfileSecurity,
  kubernetesSecurity,
  ciWorkflowSecurity,
  terraformSecurity,
].sort((a, b) => (a.id < b.id ? -1 : 1));

const BY_ID = new Map(BUILTIN_POLICIES.map((p) => [p.id, p]));

export function findBuiltin(id: string): BuiltinPolicy | undefined {
  return BY_ID.get(id);
}
