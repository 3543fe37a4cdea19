import { errors, newId } from "@verdict/kit";
import type { IdentityDeps } from "../../deps.js";
import { generateClientSecret, hashClientSecret, redirectUriErrors } from "../../domain/oauthClient.js";
import type { OAuthClientRecord } from "../../repos/oauthRepo.js";
import { recordAudit, type Actor } from "../audit/recordAudit.js";

export interface CreateOAuthClientCommand {
  organizationId: string;
  name: string;
  redirectUris: string[];
  scopes: string[];
  public: boolean;
  actor: Actor;
}

/** Registers an application; a confidential one gets its secret here, once. */
export async function createOAuthClient(
  deps: IdentityDeps,
  cmd: CreateOAuthClientCommand,
): Promise<{ record: OAuthClientRecord; secret: string | null }> {
  const problems = redirectUriErrors(cmd.redirectUris);
  // 422: the body is well-formed (what the schema promises), the URI breaks a rule of ours.
  if (problems.length)
    throw errors.unprocessable(problems, "Redirect URIs must be exact https (or http loopback) URLs");
  const secret = cmd.public ? null : generateClientSecret();
  const record: OAuthClientRecord = {
    id: newId("oac"),
    organization_id: cmd.organizationId,
    name: cmd.name,
    redirect_uris: [...new Set(cmd.redirectUris)],
    scopes: [...new Set(cmd.scopes)],
    public: cmd.public,
    secret_hash: secret ? hashClientSecret(secret) : null,
    created_at: deps.clock.now().toISOString(),
    deleted_at: null,
  };
  await deps.oauth.insertClient(record);
  await recordAudit(deps, {
    organizationId: record.organization_id,
    type: "oauth_client.created",
    actor: cmd.actor,
    targetType: "oauth_client",
    targetId: record.id,
    data: { name: record.name, scopes: record.scopes, public: record.public, redirect_uris: record.redirect_uris },
  });
  deps.logger.info({ client_id: record.id, organization_id: record.organization_id }, "OAuth client registered");
  return { record, secret };
}
