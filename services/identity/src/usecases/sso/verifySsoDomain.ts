import { AppError, errors } from "@verdict/kit";
import { normalizeDomain } from "../../domain/sso.js";
import type { IdentityDeps } from "../../deps.js";
import { recordAudit, type Actor } from "../audit/recordAudit.js";
import type { SsoConnectionView } from "./connectionView.js";
import { getSsoConnection } from "./getSsoConnection.js";

export interface VerifySsoDomainCommand {
  organizationId: string;
  /** As the operator typed it. */
  domain: string;
  actor: Actor;
}

/** The operator's word that the organization controls the domain (checked out of band). */
export async function verifySsoDomain(deps: IdentityDeps, cmd: VerifySsoDomainCommand): Promise<SsoConnectionView> {
  const { organizationId, actor } = cmd;
  const domain = normalizeDomain(cmd.domain);
  const claim = await deps.sso.domainClaim(organizationId, domain);
  if (!claim) throw errors.notFound("sso_domain", domain);
  const owner = await deps.sso.verifiedDomain(domain);
  if (owner && owner.organization_id !== organizationId)
    throw new AppError("conflict", "SSO_DOMAIN_TAKEN", `${domain} is already verified for another organization`, {
      domain,
    });
  if (!claim.verified_at) {
    await deps.sso.markDomainVerified(claim.id, deps.clock.now().toISOString());
    await recordAudit(deps, {
      organizationId,
      type: "sso.domain_verified",
      actor,
      targetType: "sso_domain",
      targetId: domain,
      data: {},
    });
  }
  return getSsoConnection(deps, { organizationId });
}
