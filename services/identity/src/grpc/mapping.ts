// What every identity handler module shares: the service's handler type, and the mappings of
// the messages more than one aggregate answers with or takes (actor, session).
import type { AsyncService } from "@verdict/kit";
import type { identityV1 } from "@verdict/proto";
import type { Actor } from "../usecases/audit/recordAudit.js";
import type { SessionView } from "../usecases/sessions/sessionView.js";

/** The identity service's handlers of these methods: each aggregate's module answers its own. */
export type IdentityHandlers<K extends keyof AsyncService<typeof identityV1.IdentityServiceService>> = Pick<
  AsyncService<typeof identityV1.IdentityServiceService>,
  K
>;

const ACTOR_TYPES = new Set(["user", "api_key", "system"]);

export function fromActor(a: identityV1.Actor | undefined): Actor {
  return a && ACTOR_TYPES.has(a.type)
    ? { type: a.type as Actor["type"], id: a.id, ip: a.ip }
    : { type: "system", id: "verdict", ip: "" };
}

export function toSession(s: SessionView): identityV1.Session {
  return { ...s, rate_limits: { ...s.rate_limits } };
}
