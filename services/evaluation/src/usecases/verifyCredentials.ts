// After a scan: the organization's own findings of credentials a provider can verify are asked
// about (when the organization turned live verification on for that provider), and each such
// violation says what the provider answered. Other organizations' settings never apply here: the
// setting read is the evaluation's own organization's.
import type { VerificationState } from "@verdict/kit";
import type { Finding } from "../domain/engineTypes.js";
import { credentialsToCheck, strongerState, VERIFIABLE_RULES } from "../domain/liveVerification.js";
import type { EvaluationDeps, OrgSettings } from "../deps.js";

export interface VerifyCredentialsCommand {
  organizationId: string;
  settings: OrgSettings;
  files: readonly { path: string; content: Buffer }[];
  /** The violations kept, in order; answered with `verification` filled where it applies. */
  violations: readonly Finding[];
}

export async function verifyCredentials(deps: EvaluationDeps, cmd: VerifyCredentialsCommand): Promise<Finding[]> {
  const { violations } = cmd;
  if (!violations.some((v) => VERIFIABLE_RULES[v.rule_id])) return [...violations];
  const states = new Map<number, { state: VerificationState; at?: string }>();
  const enabled = cmd.settings.liveVerification.enabled && deps.verifier !== undefined;
  const providers = new Set(enabled ? cmd.settings.liveVerification.providers : []);
  const { checks, unchecked } = credentialsToCheck(cmd.files, violations);
  for (const at of unchecked) states.set(at, { state: "not_checked" });
  const asked = checks.filter((c) => providers.has(c.credential.provider));
  for (const check of checks)
    if (!providers.has(check.credential.provider))
      for (const at of check.violations) states.set(at, { state: "not_checked" });
  const answers = await Promise.all(
    asked.map(async (check) => {
      if (!deps.verifier!.admit(cmd.organizationId)) return { check, state: "unknown" as const };
      const state = await deps.verifier!.verify(check.credential);
      return { check, state, at: deps.clock.now().toISOString() };
    }),
  );
  for (const { check, state, at } of answers)
    for (const v of check.violations) {
      const before = states.get(v);
      if (strongerState(before?.state, state) !== before?.state) states.set(v, { state, ...(at ? { at } : {}) });
    }
  if (asked.length)
    deps.logger.info(
      {
        organization_id: cmd.organizationId,
        credentials: asked.length,
        live: answers.filter((a) => a.state === "live").length,
        revoked: answers.filter((a) => a.state === "revoked").length,
        unknown: answers.filter((a) => a.state === "unknown").length,
      },
      "live verification asked the providers",
    );
  return violations.map((v, i) => {
    const s = states.get(i);
    if (!s) return v;
    return { ...v, verification: s.state, ...(s.at ? { verification_checked_at: s.at } : {}) };
  });
}
