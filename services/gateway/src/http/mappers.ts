// proto -> REST JSON where the REST shape differs from the proto (docs/contracts.md): the
// operator's organization with its rate limits, and an API key (its status worked out when it is
// answered, its IP allowlist one comma-separated string). The other mappers are generated from the
// proto files (src/gen/*.rest.ts).
import { jsonFields } from "@verdict/kit";
import type { identityV1 } from "@verdict/proto";
import { organizationJson } from "../gen/identity.rest.js";

export function operatorOrganizationJson(o: identityV1.Organization) {
  return { ...organizationJson(o), rate_limits: { ...(o.rate_limits ?? {}) } };
}

export function apiKeyJson(k: identityV1.ApiKey, now = Date.now()) {
  const status = k.revoked_at ? "revoked" : k.expires_at && Date.parse(k.expires_at) <= now ? "expired" : "active";
  return {
    ...jsonFields(k, ["id", "name", "scopes", "environment", "prefix"]),
    environment: k.environment as "prod" | "test",
    status,
    ...jsonFields(k, ["created_at", "expires_at", "last_used_at", "revoked_at"]),
    ip_allowlist: k.ip_allowlist.length ? k.ip_allowlist.join(",") : null,
  };
}
