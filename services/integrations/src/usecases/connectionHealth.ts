// A connection's health as its provider calls show it: the last error, broken when the provider
// refused its token (or GitHub App), active again once a call through it works, and when its token
// expires (read when it is made; a GitHub App's installation token, renewed hourly, after each check). Turning broken and
// working again are announced (connection_broken, connection_restored; webhooks deliver them),
// written with the change through the outbox, once per change: the conditional update lets only
// the first of concurrent checks announce it.
import { TOPICS, type ConnectionHealthData } from "@verdict/bus";
import { ProviderError } from "../domain/provider.js";
import type { IntegrationsDeps } from "../deps.js";
import type { ConnectionRecord } from "../repo.js";

/** Records a failed provider call: its last error, and broken when the provider refused the token. */
export async function recordProviderError(
  deps: IntegrationsDeps,
  connection: ConnectionRecord,
  err: unknown,
): Promise<void> {
  const at = deps.clock.now().toISOString();
  const error = { last_error: err instanceof Error ? err.message.slice(0, 500) : String(err), last_error_at: at };
  if (err instanceof ProviderError && err.code === "unauthorized") {
    const event = healthEvent(deps, TOPICS.connectionBroken, connection, at, err.code);
    const turned = await deps.outbox.update(
      deps.repo.c.connections,
      { id: connection.id, status: "active" },
      { ...error, status: "broken" },
      [event],
    );
    if (turned) return;
  }
  await deps.repo.c.connections.updateOne({ id: connection.id }, error);
}

/** Records that a call through a broken connection worked: it is active again. */
export async function recordProviderWorks(deps: IntegrationsDeps, connection: ConnectionRecord): Promise<void> {
  if (connection.status !== "broken") return;
  const at = deps.clock.now().toISOString();
  await deps.outbox.update(deps.repo.c.connections, { id: connection.id, status: "broken" }, { status: "active" }, [
    healthEvent(deps, TOPICS.connectionRestored, connection, at),
  ]);
}

/**
 * After a check that reached the provider: the expiry of the token in use, where it changes (a
 * GitHub App's installation tokens) or was never read (a connection made before it was). Never
 * fails the check: a provider that does not answer leaves the last value.
 */
export async function refreshTokenExpiry(
  deps: IntegrationsDeps,
  connection: ConnectionRecord,
  hint: { installationId?: string | undefined },
): Promise<void> {
  if (connection.token_expiry !== undefined && connection.token_expiry !== "renewed") return;
  try {
    const expiry = await deps.clientFor(connection, hint).tokenExpiry();
    if (expiry.kind === connection.token_expiry && expiry.expiresAt === (connection.token_expires_at ?? null)) return;
    // A renewed token not minted here (no installation named) leaves the one recorded.
    if (expiry.kind === "renewed" && expiry.expiresAt === null && connection.token_expiry === "renewed") return;
    await deps.repo.c.connections.updateOne(
      { id: connection.id },
      { token_expiry: expiry.kind, token_expires_at: expiry.expiresAt },
    );
  } catch (err) {
    deps.logger.info({ err, connection_id: connection.id }, "token expiry not read: the last one is kept");
  }
}

/** The announcement: the connection's address and the error's class, never its token or key. */
function healthEvent(
  deps: IntegrationsDeps,
  topic: string,
  connection: ConnectionRecord,
  at: string,
  errorClass?: string,
) {
  const data: ConnectionHealthData = {
    organization_id: connection.organization_id,
    connection_id: connection.id,
    provider: connection.provider,
    base_url: connection.base_url,
    ...(errorClass ? { error_class: errorClass } : {}),
    at,
  };
  return deps.outbox.event(topic, { source: "/integrations", subject: connection.id, data });
}
