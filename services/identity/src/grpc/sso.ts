// gRPC handlers of SSO: connections, claimed domains, and sign-ins through an IdP (OIDC, SAML). Map
// proto <-> use cases, nothing else.
import { commandOf } from "@verdict/kit";
import type { identityV1 } from "@verdict/proto";
import type { IdentityDeps } from "../deps.js";
import type { SsoConnectionView } from "../usecases/sso/connectionView.js";
import { deleteSsoConnection } from "../usecases/sso/deleteSsoConnection.js";
import { getSsoConnection } from "../usecases/sso/getSsoConnection.js";
import { putSsoConnection } from "../usecases/sso/putSsoConnection.js";
import { verifySsoDomain } from "../usecases/sso/verifySsoDomain.js";
import { completeOidcLogin, startOidcLogin } from "../usecases/sso/oidc.js";
import { completeSamlLogin, samlMetadata, startSamlLogin, type SamlUrls } from "../usecases/sso/saml.js";
import { fromActor, toSession, type IdentityHandlers } from "./mapping.js";

function toConnection(v: SsoConnectionView): identityV1.SsoConnection {
  const c = v.connection;
  return {
    type: c.type,
    issuer: c.oidc?.issuer ?? "",
    client_id: c.oidc?.client_id ?? "",
    client_secret_set: Boolean(c.oidc?.client_secret_sealed),
    idp_entity_id: c.saml?.idp_entity_id ?? "",
    idp_sso_url: c.saml?.idp_sso_url ?? "",
    idp_certificates: c.saml?.idp_certificates ?? [],
    idp_metadata_url: c.saml?.idp_metadata_url ?? "",
    domains: v.domains.map((d) => ({
      domain: d.domain,
      verified: d.verified_at !== null,
      verification_token: d.verification_token,
      verified_at: d.verified_at ?? "",
    })),
    default_role: c.default_role,
    enforce: c.enforce,
    created_at: c.created_at,
    updated_at: c.updated_at,
  };
}

function samlUrls(u: identityV1.SsoUrls | undefined): SamlUrls {
  return { acsUrl: u?.saml_acs_url ?? "", metadataUrl: u?.saml_metadata_url ?? "" };
}

export function ssoHandlers(
  deps: IdentityDeps,
): IdentityHandlers<
  | "putSsoConnection"
  | "getSsoConnection"
  | "deleteSsoConnection"
  | "verifySsoDomain"
  | "startSsoLogin"
  | "completeOidcLogin"
  | "completeSamlLogin"
  | "getSamlMetadata"
> {
  return {
    async putSsoConnection(req) {
      return {
        connection: toConnection(await putSsoConnection(deps, { ...commandOf(req), actor: fromActor(req.actor) })),
      };
    },
    async getSsoConnection(req) {
      return { connection: toConnection(await getSsoConnection(deps, commandOf(req))) };
    },
    async deleteSsoConnection(req) {
      await deleteSsoConnection(deps, { ...commandOf(req), actor: fromActor(req.actor) });
      return {};
    },
    async verifySsoDomain(req) {
      return {
        connection: toConnection(await verifySsoDomain(deps, { ...commandOf(req), actor: fromActor(req.actor) })),
      };
    },
    async startSsoLogin(req) {
      const redirect_url =
        req.protocol === "saml"
          ? await startSamlLogin(deps, {
              email: req.email,
              urls: samlUrls(req.urls),
              browserBinding: req.browser_binding,
            })
          : await startOidcLogin(deps, {
              email: req.email,
              redirectUri: req.urls?.oidc_redirect_uri ?? "",
              browserBinding: req.browser_binding,
            });
      return { redirect_url };
    },
    async completeOidcLogin(req) {
      const res = await completeOidcLogin(deps, { ...commandOf(req), redirectUri: req.urls?.oidc_redirect_uri ?? "" });
      return { session_token: res.token, session: toSession(res.session) };
    },
    async completeSamlLogin(req) {
      const res = await completeSamlLogin(deps, { ...commandOf(req), urls: samlUrls(req.urls) });
      return { session_token: res.token, session: toSession(res.session) };
    },
    async getSamlMetadata(req) {
      return { xml: await samlMetadata(deps, { ...commandOf(req), urls: samlUrls(req.urls) }) };
    },
  };
}
