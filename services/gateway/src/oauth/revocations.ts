// The audit events of a grant or token the authorization server revoked: reuse of a rotated
// refresh token, a replayed code, or revocation (RFC 7009).
import type { Logger } from "@verdict/kit";
import type { Clients } from "../clients.js";
import type { OAuthServer } from "./provider.js";

type Ctx = {
  oidc?: {
    route?: string;
    params?: Record<string, unknown>;
    client?: { clientId: string; metadata(): Record<string, unknown> };
  };
};

export function auditRevocations(server: OAuthServer, clients: Clients, logger: Logger): void {
  const record = (cmd: Parameters<Clients["identity"]["recordOAuthEvent"]>[0]) =>
    clients.identity
      .recordOAuthEvent(cmd)
      .catch((err: unknown) => logger.error({ err }, "could not record the OAuth revocation"));
  // Reuse of a rotated refresh token, a replayed code, or revocation: the grant (the token
  // family) is gone.
  server.provider.on("grant.revoked", (ctx: Ctx, grantId: string) => {
    const client = ctx.oidc?.client;
    if (!client) return;
    const reason =
      ctx.oidc?.route !== "token"
        ? "revoked"
        : ctx.oidc.params?.grant_type === "authorization_code"
          ? "code_replayed"
          : "refresh_token_reused";
    void record({
      organization_id: String(client.metadata().organization_id ?? ""),
      type: "oauth.grant_revoked",
      actor: { type: "system", id: client.clientId, ip: "" },
      client_id: client.clientId,
      grant_id: grantId,
      scopes: [],
      reason,
    });
  });
  // An access token revoked on its own (RFC 7009).
  server.provider.on(
    "access_token.destroyed",
    (token: { clientId?: string; grantId?: string; accountId?: string; scope?: string }) => {
      const organizationId = (token.accountId ?? "").split(".")[0];
      if (!organizationId || !token.clientId) return;
      void record({
        organization_id: organizationId,
        type: "oauth.token_revoked",
        actor: { type: "system", id: token.clientId, ip: "" },
        client_id: token.clientId,
        grant_id: token.grantId ?? "",
        scopes: (token.scope ?? "").split(" ").filter(Boolean),
        reason: "revoked",
      });
    },
  );
}
