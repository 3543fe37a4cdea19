import { errors } from "@verdict/kit";
import type { IdentityDeps } from "../../deps.js";
import type { SsoConnectionView } from "./connectionView.js";

export interface GetSsoConnectionQuery {
  organizationId: string;
}

export async function getSsoConnection(deps: IdentityDeps, query: GetSsoConnectionQuery): Promise<SsoConnectionView> {
  const { organizationId } = query;
  const connection = await deps.sso.connectionOf(organizationId);
  if (!connection) throw errors.notFound("sso_connection", organizationId);
  return { connection, domains: await deps.sso.domainsOf(organizationId) };
}
