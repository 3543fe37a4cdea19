// Structural checks: what a token format promises beyond what a regular expression can say. A rule
// names the checks its matches must pass (`checks` on the pattern); a match that fails one is not a
// finding. Each check reads the match (and at most a bounded part of the file), so scanning stays
// linear in the input. Built-in rules only: custom policies are RE2 patterns alone. The checks sit
// in checks/ by family: token formats, configuration files, source code.
import {
  goQueryIsUsed,
  goSplicesVariable,
  jsChildProcessReceiver,
  notMemberCall,
  pythonDynamicArgument,
  pythonWeakCipherModule,
} from "./checks/code.js";
import {
  dockerfileFinalUser,
  dockerfileFromImage,
  ghaInGithubScript,
  ghaInRunScript,
  k8sPodSettingApplies,
  yamlNoIntegrity,
  yamlNoNonRootUser,
} from "./checks/config.js";
import type { Check } from "./checks/input.js";
import { tfIngressRdp, tfIngressSsh, tfNotEncrypted, tfStatementAllResources } from "./checks/terraform.js";
import {
  base64PemPrivateKey,
  basicCredentials,
  crc32Token,
  discordUserId,
  jwtBase64,
  jwtHeader,
  mapboxTokenPayload,
  sentryOrgToken,
} from "./checks/tokens.js";
import { isEncodedText } from "./noise.js";

export type { Check, CheckInput } from "./checks/input.js";

export const CHECKS: Readonly<Record<string, Check>> = {
  "sentry-org-token": sentryOrgToken,
  "github-crc32": crc32Token,
  "npm-crc32": crc32Token,
  "jwt-header": jwtHeader,
  /** The value is not base64 of ordinary words (generic rules: encoded prose is no secret). */
  "not-encoded-text": (input) => !isEncodedText(input.secret),
  /** base64 of `user:password`, the password no stand-in. */
  "basic-credentials": basicCredentials,
  /** base64 of a JSON Web Token whose header is a JSON object. */
  "jwt-base64": jwtBase64,
  "dockerfile-final-user": dockerfileFinalUser,
  "dockerfile-from-image": dockerfileFromImage,
  "yaml-no-non-root-user": yamlNoNonRootUser,
  /** A pod-level securityContext setting that some container does not override with a non-zero runAsUser. */
  "k8s-pod-setting-applies": k8sPodSettingApplies,
  /** GitHub Actions: the match is in a step's run: script. */
  "gha-in-run-script": ghaInRunScript,
  /** GitHub Actions: the match is in actions/github-script's script: code. */
  "gha-in-github-script": ghaInGithubScript,
  /** GitLab CI: a remote include without an integrity hash. */
  "yaml-no-integrity": yamlNoIntegrity,
  /** Terraform: the block admits traffic on TCP port 22. */
  "tf-ingress-ssh": tfIngressSsh,
  /** Terraform: the block admits traffic on TCP port 3389. */
  "tf-ingress-rdp": tfIngressRdp,
  /** Terraform: the IAM statement also names every resource, and allows. */
  "tf-statement-all-resources": tfStatementAllResources,
  /** Terraform: encryption at rest explicitly off, or never switched on where the default is off. */
  "tf-not-encrypted": tfNotEncrypted,
  "js-child-process-receiver": jsChildProcessReceiver,
  "go-splices-variable": goSplicesVariable,
  /** Go: the query built and assigned on the match's line is run or passed on, not only printed. */
  "go-query-is-used": goQueryIsUsed,
  /** Python: the call's argument reads a name the file assigns something other than constants. */
  "python-dynamic-argument": pythonDynamicArgument,
  "python-weak-cipher-module": pythonWeakCipherModule,
  "not-member-call": notMemberCall,
  "discord-user-id": discordUserId,
  /** base64 of a PEM block labelled as a private key. */
  "base64-pem-private-key": base64PemPrivateKey,
  /** A Mapbox token's middle part is base64url of a JSON object. */
  "mapbox-token-payload": mapboxTokenPayload,
};

/**
 * The checks that verify a secret's format offline (a checksum, structure the format embeds): a
 * finding of a rule with one of them says so (`format_verified`). The others judge code or
 * configuration, or only rule out noise (`not-encoded-text`), and verify nothing.
 */
export const FORMAT_CHECKS: ReadonlySet<string> = new Set([
  "github-crc32",
  "npm-crc32",
  "sentry-org-token",
  "jwt-header",
  "jwt-base64",
  "basic-credentials",
  "discord-user-id",
  "base64-pem-private-key",
  "mapbox-token-payload",
]);

/** The named checks, or an error naming the first unknown one (a mistake in a rule definition). */
export function resolveChecks(names: readonly string[], ruleId: string): Check[] {
  return names.map((name) => {
    const check = CHECKS[name];
    if (!check)
      throw new Error(`Rule '${ruleId}' names an unknown check '${name}' (known: ${Object.keys(CHECKS).join(", ")})`);
    return check;
  });
}
