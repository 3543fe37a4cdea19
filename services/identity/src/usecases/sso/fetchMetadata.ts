// An IdP's SAML metadata document, fetched through the outbound guard (deps.egress: public
// addresses only unless VERDICT_SSO_ALLOW_PRIVATE says otherwise, redirects checked the same way,
// a size cap and one deadline for the whole answer), or the one problem a tenant is shown.
import type { IdentityDeps } from "../../deps.js";
import { IDP_DOCUMENT_MAX_BYTES, IDP_FETCH_PROBLEM, IDP_FETCH_TIMEOUT_MS } from "../../domain/sso.js";

export async function fetchMetadata(
  deps: Pick<IdentityDeps, "egress" | "logger">,
  url: string,
): Promise<string | { problem: string }> {
  try {
    const res = await deps.egress.request({
      url,
      timeoutMs: IDP_FETCH_TIMEOUT_MS,
      maxResponseBytes: IDP_DOCUMENT_MAX_BYTES,
      maxRedirects: 3,
      headers: { accept: "application/samlmetadata+xml, application/xml, text/xml" },
    });
    if (res.status === 200) return res.body.toString("utf8");
    deps.logger.warn({ status: res.status }, "SAML metadata URL answered an error status");
  } catch (err) {
    deps.logger.warn({ err: (err as Error).message }, "SAML metadata URL could not be fetched");
  }
  return { problem: IDP_FETCH_PROBLEM };
}
