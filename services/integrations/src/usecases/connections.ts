// Connections of an organization to a hosting provider: made only when the provider accepts the
// token, listed without their secrets, deleted.
import { AppError, errors, newId } from "@verdict/kit";
import { checkConnectionInput, normalizeBaseUrl, type ConnectionProvider } from "../domain/connection.js";
import { ProviderError, type TokenExpiry } from "../domain/provider.js";
import { sealContext, type IntegrationsDeps } from "../deps.js";
import type { AuditContextInput } from "@verdict/outbox";
import type { ConnectionRecord } from "../repo.js";
import { connectionAuditEvent } from "./connectionAudit.js";

export interface CreateConnectionCommand {
  /** Set in advance by the GitHub App set-up (the manifest's webhook URL names it); else a new id. */
  id?: string;
  organizationId: string;
  provider: string;
  baseUrl: string;
  /** Gitea, GitLab: the access token. */
  token: string;
  webhookSecret: string;
  /** GitHub: the App's id and private key. */
  appId?: string;
  privateKey?: string;
  /** Who asks, for the audit event written with the change. */
  audit?: AuditContextInput | undefined;
}

export async function createConnection(
  deps: IntegrationsDeps,
  cmd: CreateConnectionCommand,
): Promise<ConnectionRecord> {
  const problems = checkConnectionInput({
    provider: cmd.provider,
    base_url: cmd.baseUrl,
    token: cmd.token,
    webhook_secret: cmd.webhookSecret,
    ...(cmd.appId ? { app_id: cmd.appId } : {}),
    ...(cmd.privateKey ? { private_key: cmd.privateKey } : {}),
  });
  // Schema-valid but not a connection this provider takes (a GitHub App's key for Gitea, a key
  // that is not PEM): 422, like every rule the request schema cannot state.
  if (problems.length) throw errors.unprocessable(problems);
  await refuseAddress(deps, cmd.baseUrl);
  const now = deps.clock.now();
  const id = cmd.id ?? newId("conn", now.getTime());
  const record: ConnectionRecord = {
    id,
    organization_id: cmd.organizationId,
    provider: cmd.provider as ConnectionProvider,
    base_url: normalizeBaseUrl(cmd.baseUrl),
    ...(cmd.provider === "github" ? { app_id: cmd.appId! } : {}),
    token_sealed: deps.secrets.seal(cmd.provider === "github" ? cmd.privateKey! : cmd.token, sealContext.token(id)),
    webhook_secret_sealed: deps.secrets.seal(cmd.webhookSecret, sealContext.webhookSecret(id)),
    status: "active",
    last_event_at: null,
    last_error: null,
    last_error_at: null,
    created_at: now.toISOString(),
  };
  // The token (a GitHub App's id and key) must work before the connection is kept: a typo is
  // found now, not at the first push. Its expiry is read with it.
  const expiry = await checkToken(deps, record);
  record.token_expiry = expiry.kind;
  record.token_expires_at = expiry.expiresAt;
  await deps.repo.insertConnection(record, [connectionAuditEvent(deps, "integration.connected", record, cmd.audit)]);
  deps.logger.info(
    { organization_id: cmd.organizationId, connection_id: id, provider: record.provider },
    "provider connection created",
  );
  return record;
}

/** A provider at an address the SSRF guard refuses: 422 on base_url. */
export async function refuseAddress(deps: IntegrationsDeps, baseUrl: string): Promise<void> {
  if (await deps.egress.refuses(baseUrl))
    throw new AppError(
      "unprocessable",
      "PROVIDER_ADDRESS_NOT_ALLOWED",
      "base_url is at a loopback, private, link-local or reserved address, which this instance does not allow (VERDICT_INTEGRATIONS_ALLOW_PRIVATE)",
      { field: "base_url" },
    );
}

/** Checks that the provider takes the token, and answers when it expires. */
async function checkToken(deps: IntegrationsDeps, record: ConnectionRecord): Promise<TokenExpiry> {
  const client = deps.clientFor(record);
  // GitHub refuses the App (its id and key together): the key is what to check first.
  const field = record.provider === "github" ? "private_key" : "token";
  try {
    // Any repository name will do: a valid token gets not_found, a bad one unauthorized (GitHub:
    // the App's JWT looks up the App's installation on the repository).
    await client.getRepository({ owner: "verdict-connection-check", name: "none" });
  } catch (err) {
    if (!(err instanceof ProviderError && err.code === "not_found")) throw providerProblem(err, field);
  }
  try {
    return await client.tokenExpiry();
  } catch (err) {
    throw providerProblem(err, field);
  }
}

/** A provider's refusal as the API's 422, with a code that says what to fix. */
export function providerProblem(err: unknown, field: string): AppError {
  if (!(err instanceof ProviderError)) throw err;
  const codes: Record<string, [string, string]> = {
    unauthorized: ["PROVIDER_UNAUTHORIZED", "the provider refused the connection's token (or the App's id and key)"],
    forbidden: ["PROVIDER_FORBIDDEN", "the connection's token may not read this"],
    not_found: [
      "PROVIDER_NOT_FOUND",
      "the provider has no such repository, or the token cannot see it (GitHub: the App is not installed on it)",
    ],
    rate_limited: ["PROVIDER_RATE_LIMITED", "the provider is rate-limiting the connection; try again later"],
    unavailable: ["PROVIDER_UNAVAILABLE", "the provider could not be reached"],
    invalid: ["PROVIDER_INVALID", "the provider refused the request"],
  };
  const [code, message] = codes[err.code]!;
  return new AppError("unprocessable", code, message, { field, provider_status: err.status ?? null });
}

export async function listConnections(
  deps: IntegrationsDeps,
  cmd: { organizationId: string },
): Promise<ConnectionRecord[]> {
  return deps.repo.listConnections(cmd.organizationId);
}

export async function deleteConnection(
  deps: IntegrationsDeps,
  cmd: { organizationId: string; connectionId: string; audit?: AuditContextInput | undefined },
): Promise<void> {
  const record = await deps.repo.getConnection(cmd.organizationId, cmd.connectionId);
  const event = record && connectionAuditEvent(deps, "integration.disconnected", record, cmd.audit);
  const deleted = event && (await deps.repo.removeConnection(cmd.organizationId, cmd.connectionId, [event]));
  if (!deleted) throw errors.notFound("connection", cmd.connectionId);
}

/** The organization's connection to a provider (the oldest when there are several). */
export async function connectionFor(
  deps: IntegrationsDeps,
  organizationId: string,
  provider: string,
): Promise<ConnectionRecord> {
  const found = (await deps.repo.listConnections(organizationId)).find((c) => c.provider === provider);
  if (!found)
    throw new AppError("unprocessable", "PROVIDER_NOT_CONNECTED", `the organization has no ${provider} connection`, {
      field: "provider",
    });
  return found;
}
