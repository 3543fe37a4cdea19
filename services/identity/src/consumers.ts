// Bus consumers: map events to use cases, nothing else (the bus's counterpart of grpc.ts).
import { TOPICS, type Bus, type Subscription } from "@verdict/bus";
import type { AuditChangeData } from "@verdict/outbox";
import type { IdentityDeps } from "./deps.js";
import { appendAuditChange } from "./usecases/audit/appendAuditChange.js";

export async function subscribeIdentityConsumers(deps: IdentityDeps, bus: Bus): Promise<Subscription[]> {
  return [
    // Configuration changes the owning services wrote with the change: into the audit log.
    await bus.subscribe<AuditChangeData>(TOPICS.auditChange, "identity-audit", (event) =>
      appendAuditChange(deps, event),
    ),
  ];
}
