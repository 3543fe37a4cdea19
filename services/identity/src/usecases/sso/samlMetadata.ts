// Reads an IdP's SAML metadata (EntityDescriptor): its entity id, the Redirect-binding SSO
// address and its signing certificates. A real XML parser (xmldom), namespace-aware.
import { DOMParser } from "@xmldom/xmldom";

const MD = "urn:oasis:names:tc:SAML:2.0:metadata";
const DS = "http://www.w3.org/2000/09/xmldsig#";
const REDIRECT = "urn:oasis:names:tc:SAML:2.0:bindings:HTTP-Redirect";

export interface IdpMetadata {
  entityId: string;
  ssoUrl: string;
  certificates: string[];
}

/** Answers the metadata's facts, or a problem to report on the field. */
export function parseIdpMetadata(xml: string): IdpMetadata | { problem: string } {
  let doc: Document;
  try {
    const errorsSeen: string[] = [];
    doc = new DOMParser({
      errorHandler: { error: (m: string) => errorsSeen.push(m), fatalError: (m: string) => errorsSeen.push(m) },
    }).parseFromString(xml, "text/xml") as unknown as Document;
    if (errorsSeen.length > 0) return { problem: "is not well-formed XML" };
  } catch {
    return { problem: "is not well-formed XML" };
  }
  const entity = doc.getElementsByTagNameNS(MD, "EntityDescriptor")[0];
  const idp = entity?.getElementsByTagNameNS(MD, "IDPSSODescriptor")[0];
  if (!entity || !idp) return { problem: "has no EntityDescriptor with an IDPSSODescriptor" };
  const entityId = entity.getAttribute("entityID") ?? "";
  const sso = Array.from(idp.getElementsByTagNameNS(MD, "SingleSignOnService")).find(
    (e) => e.getAttribute("Binding") === REDIRECT,
  );
  const certificates = Array.from(idp.getElementsByTagNameNS(MD, "KeyDescriptor"))
    .filter((k) => !k.getAttribute("use") || k.getAttribute("use") === "signing")
    .flatMap((k) => Array.from(k.getElementsByTagNameNS(DS, "X509Certificate")))
    .map((c) => (c.textContent ?? "").replace(/\s+/g, ""))
    .filter((c) => c.length > 0);
  if (!entityId) return { problem: "has no entityID" };
  if (!sso?.getAttribute("Location")) return { problem: "has no SingleSignOnService with the HTTP-Redirect binding" };
  if (certificates.length === 0) return { problem: "has no signing certificate (KeyDescriptor)" };
  return { entityId, ssoUrl: sso.getAttribute("Location")!, certificates };
}
