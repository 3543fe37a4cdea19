// Which connection an email signs in with: its domain must be verified for an organization
// whose connection uses the protocol asked for.
import { errors } from "@verdict/kit";
import type { IdentityDeps } from "../../deps.js";
import { emailDomain, type SsoType } from "../../domain/sso.js";
import { assertSsoPlan } from "./ssoPlan.js";
import type { SsoConnectionRecord } from "../../repos/ssoRepo.js";

const emailProblem = (message: string) =>
  errors.unprocessable([{ field: "email", code: "INVALID_FORMAT", message }], message);

export interface ConnectionForEmailQuery {
  email: string;
  protocol: SsoType;
}

export async function connectionForEmail(
  deps: IdentityDeps,
  { email, protocol }: ConnectionForEmailQuery,
): Promise<SsoConnectionRecord> {
  const domain = emailDomain(email);
  if (!domain) throw emailProblem("email must be an email address (name@example.com)");
  const verified = await deps.sso.verifiedDomain(domain);
  if (!verified) {
    const claimed = await deps.sso.anyClaimOf(domain);
    throw emailProblem(
      claimed
        ? `${domain} is claimed for SSO but not verified yet: an operator verifies it (docs/sso.md)`
        : `No organization signs in ${domain} through SSO: sign in with your password`,
    );
  }
  const connection = await deps.sso.connectionOf(verified.organization_id);
  if (!connection) throw emailProblem(`No organization signs in ${domain} through SSO`);
  if (connection.type !== protocol)
    throw emailProblem(
      `${domain} signs in with ${connection.type.toUpperCase()}: use ${connection.type === "oidc" ? "/auth/oidc/authorize" : "/auth/saml/login"}`,
    );
  // A connection outlives a plan that no longer includes SSO; its sign-ins do not.
  await assertSsoPlan(deps, connection.organization_id);
  return connection;
}
