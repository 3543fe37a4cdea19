// Accepted risks that expire: the findings model already ignores an expired decision when it
// reads (domain/findings.ts), so the finding is open again at once; this sweep announces it. Each
// expired decision is claimed once (a conditional write of `expiry_announced_at` with its events
// through the outbox), so several replicas sweeping at the same time announce it once.
import { TOPICS, type FindingUpdatedData } from "@verdict/bus";
import { auditChangeEvent, type PendingEvent } from "@verdict/outbox";
import type { ComplianceDeps } from "../deps.js";
import { identityOf } from "../domain/findings.js";
import type { TriageDoc } from "../triageRepo.js";
import { defaultSince, derive, findingFacts, findingFields } from "./findings.js";

/** Expired decisions one sweep takes at most (the next sweep takes the rest). */
const SWEEP_BATCH = 200;

/**
 * Announces every accepted risk that expired and was not announced yet: per finding it covered,
 * `finding.updated` (cause `accepted_risk_expired`) and an audit event by the instance itself; an
 * expiry whose finding is no longer listed (fixed, or not seen for FINDINGS_DEFAULT_DAYS) gets its
 * audit event alone. Returns how many decisions this call announced.
 */
export async function announceExpiredRisks(deps: ComplianceDeps): Promise<number> {
  const now = deps.clock.now().toISOString();
  const expired = await deps.triage.expiredUnannounced(now, SWEEP_BATCH);
  const byOrg = new Map<string, TriageDoc[]>();
  for (const d of expired) byOrg.set(d.organization_id, [...(byOrg.get(d.organization_id) ?? []), d]);
  let announced = 0;
  for (const [organizationId, docs] of byOrg) {
    const facts = await findingFacts(deps, organizationId, defaultSince(deps));
    const after = new Map(derive(facts, facts.facts).map((f) => [f.id, f]));
    for (const doc of docs) {
      // The findings the decision covered: as they were with it still in force.
      const inForce = facts.facts.map((t) => (t.id === doc.id ? withoutExpiry(t) : t));
      const covered = derive(facts, inForce).filter(
        (f) => f.repository === doc.repository && identityOf(f) === doc.identity && f.status === "accepted_risk",
      );
      const events = expiryEvents(
        deps,
        doc,
        covered.map((f) => after.get(f.id)!),
      );
      if (await deps.triage.announceExpiry(doc, now, events)) {
        announced++;
        deps.logger.info(
          { organization_id: organizationId, repository: doc.repository, findings: covered.length },
          "accepted risk expired: finding reopened",
        );
      }
    }
  }
  return announced;
}

const withoutExpiry = ({ expires_at: _, ...t }: TriageDoc): TriageDoc => t;

function expiryEvents(deps: ComplianceDeps, doc: TriageDoc, reopened: ReturnType<typeof derive>): PendingEvent[] {
  const audit = (targetType: string, targetId: string, data: Record<string, unknown>, changes = {}) =>
    auditChangeEvent(deps.outbox, deps.clock, "/compliance", {
      organizationId: doc.organization_id,
      type: "finding.accepted_risk_expired",
      // The instance itself acts: no request, a system actor.
      context: undefined,
      targetType,
      targetId,
      changes,
      data: { repository: doc.repository, reason: doc.reason, expires_at: doc.expires_at, ...data },
    });
  if (!reopened.length) return [audit("triage", doc.id, {})];
  return reopened.flatMap((f) => {
    const data: FindingUpdatedData = {
      organization_id: doc.organization_id,
      previous_state: "accepted_risk",
      cause: "accepted_risk_expired",
      finding: findingFields(f),
    };
    return [
      deps.outbox.event(TOPICS.findingUpdated, { source: "/compliance", subject: f.id, data }),
      audit(
        "finding",
        f.id,
        { ref: f.ref, file: f.file, policy_id: f.policy_id, rule_id: f.rule_id },
        { state: { before: "accepted_risk", after: f.status } },
      ),
    ];
  });
}
