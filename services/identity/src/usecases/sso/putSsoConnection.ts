// An organization's SSO connection, made or replaced by an admin (plan-gated): OIDC or SAML (from
// the IdP's metadata, pasted or fetched), the email domains it claims, the default role.
import { errors, type FieldError } from "@verdict/kit";
import type { IdentityDeps } from "../../deps.js";
import { isRole, type Role } from "../../domain/member.js";
import {
  SSO_DEFAULT_ROLES,
  domainErrors,
  idpUrlProblem,
  normalizeCertificate,
  normalizeDomain,
  type SsoType,
} from "../../domain/sso.js";
import { recordAudit, type Actor } from "../audit/recordAudit.js";
import { SECRET_CONTEXT, type SsoConnectionView } from "./connectionView.js";
import { fetchMetadata } from "./fetchMetadata.js";
import { parseIdpMetadata } from "./samlMetadata.js";
import { assertSsoPlan } from "./ssoPlan.js";
import type { SsoConnectionRecord } from "../../repos/ssoRepo.js";

export interface PutSsoConnectionCommand {
  organizationId: string;
  actor: Actor;
  type: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  idpMetadataXml: string;
  idpMetadataUrl: string;
  idpEntityId: string;
  idpSsoUrl: string;
  idpCertificate: string;
  domains: string[];
  defaultRole: string;
  enforce: boolean;
}

export async function putSsoConnection(deps: IdentityDeps, cmd: PutSsoConnectionCommand): Promise<SsoConnectionView> {
  await assertSsoPlan(deps, cmd.organizationId);
  const fieldErrors: FieldError[] = [];
  const problem = (field: string, message: string, code: FieldError["code"] = "INVALID_FORMAT") =>
    fieldErrors.push({ field, code, message });
  const type = cmd.type as SsoType;
  const existing = await deps.sso.connectionOf(cmd.organizationId);
  let oidc: SsoConnectionRecord["oidc"] = null;
  let saml: SsoConnectionRecord["saml"] = null;
  if (type === "oidc") {
    const issuerProblem = cmd.issuer ? idpUrlProblem(cmd.issuer) : "is required for an OIDC connection";
    if (issuerProblem) problem("issuer", `issuer ${issuerProblem}`, cmd.issuer ? "INVALID_FORMAT" : "REQUIRED");
    if (!cmd.clientId) problem("client_id", "client_id is required for an OIDC connection", "REQUIRED");
    const keep = existing?.oidc && !cmd.clientSecret ? existing.oidc.client_secret_sealed : undefined;
    if (!cmd.clientSecret && !keep)
      problem("client_secret", "client_secret is required (stored encrypted, never shown again)", "REQUIRED");
    oidc = {
      issuer: cmd.issuer.replace(/\/$/, ""),
      client_id: cmd.clientId,
      client_secret_sealed: keep ?? deps.totpBox.seal(cmd.clientSecret, SECRET_CONTEXT),
    };
  } else {
    let entityId = cmd.idpEntityId;
    let ssoUrl = cmd.idpSsoUrl;
    let certificates: string[] = [];
    if (cmd.idpMetadataXml || cmd.idpMetadataUrl) {
      const field = cmd.idpMetadataXml ? "idp_metadata_xml" : "idp_metadata_url";
      const urlProblem = cmd.idpMetadataXml ? undefined : idpUrlProblem(cmd.idpMetadataUrl);
      const xml = urlProblem
        ? { problem: urlProblem }
        : cmd.idpMetadataXml || (await fetchMetadata(deps, cmd.idpMetadataUrl));
      const parsed = typeof xml === "string" ? parseIdpMetadata(xml) : xml;
      if ("problem" in parsed) problem(field, `${field} ${parsed.problem}`);
      else {
        entityId = entityId || parsed.entityId;
        ssoUrl = ssoUrl || parsed.ssoUrl;
        certificates = parsed.certificates;
      }
    }
    if (cmd.idpCertificate) {
      const pem = normalizeCertificate(cmd.idpCertificate);
      if (!pem) problem("idp_certificate", "idp_certificate is not a PEM or base64 X.509 certificate");
      else certificates = [cmd.idpCertificate];
    }
    if (!entityId) problem("idp_entity_id", "idp_entity_id (or IdP metadata) is required for SAML", "REQUIRED");
    const ssoProblem = ssoUrl ? idpUrlProblem(ssoUrl) : "is required for SAML (or IdP metadata)";
    if (ssoProblem) problem("idp_sso_url", `idp_sso_url ${ssoProblem}`, ssoUrl ? "INVALID_FORMAT" : "REQUIRED");
    if (certificates.length === 0 && !fieldErrors.some((e) => e.field.startsWith("idp_")))
      problem("idp_certificate", "idp_certificate (or IdP metadata) is required for SAML", "REQUIRED");
    saml = {
      idp_entity_id: entityId,
      idp_sso_url: ssoUrl,
      idp_certificates: certificates.map((c) => normalizeCertificate(c)!).filter(Boolean),
      idp_metadata_url: cmd.idpMetadataXml ? "" : cmd.idpMetadataUrl,
      idp_certificate_pinned: !!cmd.idpCertificate,
    };
  }
  if (!isRole(cmd.defaultRole) || !SSO_DEFAULT_ROLES.includes(cmd.defaultRole))
    problem("default_role", "default_role must be admin, member or viewer (owners are made by owners)", "INVALID_ENUM");
  fieldErrors.push(...domainErrors(cmd.domains));
  const domains = cmd.domains.map(normalizeDomain);
  // A verified domain belongs to one organization across the instance.
  for (const [i, d] of domains.entries()) {
    const owner = await deps.sso.verifiedDomain(d);
    if (owner && owner.organization_id !== cmd.organizationId)
      problem(`domains[${i}]`, `${d} is verified for another organization's SSO connection`);
  }
  if (fieldErrors.length > 0) throw errors.unprocessable(fieldErrors, "The SSO connection is not valid");

  const now = deps.clock.now().toISOString();
  const record: SsoConnectionRecord = {
    id: cmd.organizationId,
    organization_id: cmd.organizationId,
    type,
    oidc,
    saml,
    default_role: cmd.defaultRole as Role,
    enforce: cmd.enforce,
    created_at: existing?.created_at ?? now,
    updated_at: now,
  };
  await deps.sso.saveConnection(record, existing !== null);
  // The cached discovery documents of the old and new issuers (other replicas see updated_at).
  if (existing?.oidc) deps.oidcDiscovery.invalidate(existing.oidc.issuer);
  if (oidc) deps.oidcDiscovery.invalidate(oidc.issuer);
  await deps.sso.claimDomains(cmd.organizationId, domains, now);
  await recordAudit(deps, {
    organizationId: cmd.organizationId,
    type: "sso.connection_updated",
    actor: cmd.actor,
    targetType: "sso_connection",
    targetId: cmd.organizationId,
    data: { type, domains, default_role: record.default_role, enforce: record.enforce, created: !existing },
  });
  return { connection: record, domains: await deps.sso.domainsOf(cmd.organizationId) };
}
