// The OIDC relying party (openid-client 6): authorization code with PKCE S256, state and nonce
// kept in the store (every replica sees them; each used once; they expire), the code exchanged
// here with the client secret, the ID token checked by the library: its claims (issuer,
// audience, nonce, expiry) and its signature against the issuer's keys (oidcDiscovery.ts).
import { AppError, EgressError } from "@verdict/kit";
import * as oidcClient from "openid-client";
import type { IdentityDeps } from "../../deps.js";
import { idpSaysMfa, SSO_STATE_TTL_MS } from "../../domain/sso.js";
import { hashToken } from "../../domain/secrets.js";
import { SECRET_CONTEXT } from "./connectionView.js";
import { finishSsoSignIn } from "./finishSsoSignIn.js";
import { invalidState, takePendingSignIn } from "./pendingSignIn.js";
import { connectionForEmail } from "./route.js";
import type { SsoConnectionRecord } from "../../repos/ssoRepo.js";
import type { SessionView } from "../sessions/sessionView.js";

async function configFor(deps: IdentityDeps, c: SsoConnectionRecord): Promise<oidcClient.Configuration> {
  const o = c.oidc!;
  try {
    return await deps.oidcDiscovery.configuration(
      {
        issuer: o.issuer,
        clientId: o.client_id,
        clientSecret: deps.totpBox.open(o.client_secret_sealed, SECRET_CONTEXT),
        connectionUpdatedAt: c.updated_at,
      },
      deps.clock.now(),
    );
  } catch (err) {
    deps.logger.warn({ organization_id: c.organization_id, err: (err as Error).message }, "OIDC discovery failed");
    throw new AppError(
      "dependency",
      "SSO_IDP_UNAVAILABLE",
      `The identity provider at ${o.issuer} did not answer its discovery document`,
    );
  }
}

export interface StartOidcLoginCommand {
  email: string;
  redirectUri: string;
  /** The starting browser's SSO cookie (pendingSignIn.ts). */
  browserBinding: string;
}

export async function startOidcLogin(
  deps: IdentityDeps,
  { email, redirectUri, browserBinding }: StartOidcLoginCommand,
): Promise<string> {
  const connection = await connectionForEmail(deps, { email, protocol: "oidc" });
  const config = await configFor(deps, connection);
  const state = oidcClient.randomState();
  const nonce = oidcClient.randomNonce();
  const verifier = oidcClient.randomPKCECodeVerifier();
  await deps.sso.startSignIn({
    id: hashToken(state),
    organization_id: connection.organization_id,
    protocol: "oidc",
    code_verifier: verifier,
    nonce,
    request_id: null,
    request_instant: null,
    ...(browserBinding ? { browser_hash: hashToken(browserBinding) } : {}),
    expires_at: new Date(deps.clock.now().getTime() + SSO_STATE_TTL_MS).toISOString(),
  });
  return oidcClient
    .buildAuthorizationUrl(config, {
      redirect_uri: redirectUri,
      scope: "openid email profile",
      response_type: "code",
      code_challenge: await oidcClient.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      nonce,
      login_hint: email,
    })
    .toString();
}

export interface CompleteOidcLogin {
  state: string;
  code: string;
  iss: string;
  redirectUri: string;
  clientIp: string;
  userAgent: string;
  browserBinding: string;
}

export async function completeOidcLogin(
  deps: IdentityDeps,
  cmd: CompleteOidcLogin,
): Promise<{ token: string; session: SessionView }> {
  // One use: only the request that takes it goes on, from the browser that started it.
  const pending = await takePendingSignIn(deps, {
    secret: cmd.state,
    protocol: "oidc",
    browserBinding: cmd.browserBinding,
  });
  const connection = await deps.sso.connectionOf(pending.organization_id);
  if (!connection || connection.type !== "oidc") throw invalidState();
  const config = await configFor(deps, connection);
  const callback = new URL(cmd.redirectUri);
  callback.searchParams.set("code", cmd.code);
  callback.searchParams.set("state", cmd.state);
  if (cmd.iss) callback.searchParams.set("iss", cmd.iss);
  let claims: oidcClient.IDToken;
  try {
    const tokens = await oidcClient.authorizationCodeGrant(config, callback, {
      pkceCodeVerifier: pending.code_verifier!,
      expectedState: cmd.state,
      expectedNonce: pending.nonce!,
      idTokenExpected: true,
    });
    claims = tokens.claims()!;
  } catch (err) {
    deps.logger.warn(
      { organization_id: connection.organization_id, err: (err as Error).message },
      "OIDC code exchange refused",
    );
    // A request the guard stopped (or that failed) says no more than that to the caller.
    const unreachable = err instanceof EgressError || (err as Error).cause instanceof EgressError;
    throw new AppError(
      "unauthorized",
      "SSO_IDP_RESPONSE_INVALID",
      unreachable
        ? "The identity provider could not be reached"
        : `The identity provider's answer was refused: ${(err as Error).message}`,
    );
  } finally {
    deps.oidcDiscovery.keepKeys(connection.oidc!.issuer, config);
  }
  const email = typeof claims.email === "string" ? claims.email : "";
  if (!email)
    throw new AppError(
      "forbidden",
      "SSO_EMAIL_MISSING",
      "The identity provider sent no email claim (add the email scope)",
    );
  return finishSsoSignIn(deps, {
    connection,
    identity: {
      email,
      emailVerified: claims.email_verified === true,
      name: typeof claims.name === "string" ? claims.name : "",
      subject: claims.sub,
      mfa: idpSaysMfa(claims.amr, claims.acr),
    },
    clientIp: cmd.clientIp,
    userAgent: cmd.userAgent,
  });
}
