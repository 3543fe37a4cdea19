// An IdP that rotates its signing key publishes the new certificate in its metadata. A SAML
// connection whose certificates came from a metadata URL (none pinned by an admin) reads that URL
// again when a response's signature fails with the stored certificates: at most once per
// SAML_CERT_REFRESH_INTERVAL_MS per connection (recorded in the store, so replicas share it, and
// forged responses cannot make Verdict fetch the metadata over and over). The caller checks the
// response again only when the certificates changed.
import type { IdentityDeps } from "../../deps.js";
import { normalizeCertificate, SAML_CERT_REFRESH_INTERVAL_MS } from "../../domain/sso.js";
import { fetchMetadata } from "./fetchMetadata.js";
import { parseIdpMetadata } from "./samlMetadata.js";
import type { SsoConnectionRecord } from "../../repos/ssoRepo.js";

export interface RefreshSamlCertificatesCommand {
  connection: SsoConnectionRecord;
}

/** The connection with the certificates its metadata lists now, or null when nothing changed. */
export async function refreshSamlCertificates(
  deps: IdentityDeps,
  cmd: RefreshSamlCertificatesCommand,
): Promise<SsoConnectionRecord | null> {
  const { connection } = cmd;
  const saml = connection.saml;
  // Only certificates that came from the metadata URL follow it: a pinned one (pasted by an
  // admin, even beside a metadata URL) or one from pasted XML stays until an admin saves again.
  if (!saml?.idp_metadata_url || saml.idp_certificate_pinned) return null;
  const now = deps.clock.now();
  const last = saml.certificates_refreshed_at ? Date.parse(saml.certificates_refreshed_at) : 0;
  if (now.getTime() - last < SAML_CERT_REFRESH_INTERVAL_MS) return null;
  // Claim the refresh first (compare-and-set on the time read), so concurrent failures fetch once.
  const claimed = await deps.sso.updateSamlIfUnchanged(
    connection,
    { ...saml, certificates_refreshed_at: now.toISOString() },
    saml.certificates_refreshed_at ?? null,
  );
  if (!claimed) return null;
  const xml = await fetchMetadata(deps, saml.idp_metadata_url);
  const parsed = typeof xml === "string" ? parseIdpMetadata(xml) : xml;
  if ("problem" in parsed) {
    deps.logger.warn(
      { organization_id: connection.organization_id, problem: parsed.problem },
      "SAML metadata could not be read again",
    );
    return null;
  }
  const certificates = parsed.certificates.map((c) => normalizeCertificate(c)).filter((c): c is string => !!c);
  const same =
    certificates.length === saml.idp_certificates.length &&
    certificates.every((c) => saml.idp_certificates.includes(c));
  if (same || certificates.length === 0) return null;
  const updated: SsoConnectionRecord = {
    ...connection,
    saml: { ...saml, idp_certificates: certificates, certificates_refreshed_at: now.toISOString() },
  };
  // Unless an admin saved the connection meanwhile (their settings win).
  const stored = await deps.sso.updateSamlIfUnchanged(connection, updated.saml);
  if (!stored) return null;
  deps.logger.info(
    { organization_id: connection.organization_id, certificates: certificates.length },
    "SAML IdP certificates refreshed from its metadata",
  );
  return updated;
}
