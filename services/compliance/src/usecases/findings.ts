// Findings across evaluations (the states of domain/findings.ts, from the evidence projection and
// the members' triage): list them, and triage one. Every call is scoped to one organization.
import { TOPICS, type FindingUpdatedData } from "@verdict/bus";
import { errors, type FieldError } from "@verdict/kit";
import { auditChangeEvent, type AuditContextInput } from "@verdict/outbox";
import type { ComplianceDeps } from "../deps.js";
import { findingId, identityOf, trackFindings, type TrackedFinding, type TriageFact } from "../domain/findings.js";

/** How far back the findings list looks by default. */
export const FINDINGS_DEFAULT_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface FindingView extends TrackedFinding {
  id: string;
}

/** The organization's evidence since `since` and its triage decisions, and the time now. */
export async function findingFacts(deps: ComplianceDeps, organizationId: string, since: string) {
  const now = deps.clock.now();
  const evidence = await deps.repo.evidenceFor(organizationId, {
    from: since,
    to: new Date(now.getTime() + 1).toISOString(),
  });
  return { ...evidence, facts: await deps.triage.forOrganization(organizationId), now: now.toISOString() };
}

/** The findings of those facts with their states, under `facts` as the triage in force. */
export function derive(f: Awaited<ReturnType<typeof findingFacts>>, facts: TriageFact[]): FindingView[] {
  return trackFindings(f.evaluations, f.violations, f.bypasses, { facts, now: f.now }).map((t) => ({
    ...t,
    id: findingId(t),
  }));
}

export const defaultSince = (deps: ComplianceDeps) =>
  new Date(deps.clock.now().getTime() - FINDINGS_DEFAULT_DAYS * DAY_MS).toISOString();

export interface ListFindingsCommand {
  organizationId: string;
  /** Empty or absent: every repository. */
  repository?: string | undefined;
  /** A FindingStatus; empty or absent: every state. */
  state?: string | undefined;
  /** ISO 8601; empty or absent: FINDINGS_DEFAULT_DAYS ago. */
  since?: string | undefined;
  /** 0: DEFAULT_FINDINGS_LIMIT. */
  limit: number;
}

/** How many findings a list answers when the caller names no limit. */
const DEFAULT_FINDINGS_LIMIT = 100;

export async function listFindings(
  deps: ComplianceDeps,
  cmd: ListFindingsCommand,
): Promise<{ findings: FindingView[]; hasMore: boolean }> {
  const facts = await findingFacts(deps, cmd.organizationId, cmd.since || defaultSince(deps));
  const limit = cmd.limit || DEFAULT_FINDINGS_LIMIT;
  const all = derive(facts, facts.facts);
  const matching = all
    .filter((f) => (!cmd.repository || f.repository === cmd.repository) && (!cmd.state || f.status === cmd.state))
    .sort((a, b) => (a.last_seen.at < b.last_seen.at ? 1 : a.last_seen.at > b.last_seen.at ? -1 : 0));
  return { findings: matching.slice(0, limit), hasMore: matching.length > limit };
}

export interface UpdateFindingCommand {
  organizationId: string;
  findingId: string;
  state: "open" | "false_positive" | "accepted_risk";
  reason: string;
  /** Empty or absent: none (only an accepted risk expires). */
  expiresAt?: string | undefined;
  /** Who asks, for the audit event written with the decision. */
  audit?: AuditContextInput | undefined;
}

/**
 * Records a member's triage of a finding seen in the last FINDINGS_DEFAULT_DAYS days (another
 * organization's, or an unknown one, is not found), or takes it back (`open`); the finding with
 * its new state.
 */
export async function updateFinding(deps: ComplianceDeps, cmd: UpdateFindingCommand): Promise<FindingView> {
  const facts = await findingFacts(deps, cmd.organizationId, defaultSince(deps));
  const finding = derive(facts, facts.facts).find((f) => f.id === cmd.findingId);
  if (!finding) throw errors.notFound("finding", cmd.findingId);
  const problems: FieldError[] = [];
  if (cmd.state !== "open" && !cmd.reason.trim())
    problems.push({ field: "reason", code: "REQUIRED", message: `reason is required to mark a finding ${cmd.state}` });
  if (cmd.state === "accepted_risk" && !cmd.expiresAt)
    problems.push({ field: "expires_at", code: "REQUIRED", message: "an accepted risk needs expires_at" });
  if (cmd.expiresAt && cmd.state !== "accepted_risk")
    problems.push({ field: "expires_at", code: "INVALID_FORMAT", message: "only an accepted risk expires" });
  if (cmd.state === "accepted_risk" && cmd.expiresAt && new Date(cmd.expiresAt).toISOString() <= facts.now)
    problems.push({ field: "expires_at", code: "INVALID_FORMAT", message: "expires_at must be in the future" });
  if (cmd.state !== "open" && finding.status === "fixed")
    problems.push({ field: "state", code: "INVALID_ENUM", message: "a fixed finding is no longer in the code" });
  if (problems.length) throw errors.unprocessable(problems, problems[0]!.message);

  const identity = identityOf(finding);
  const others = facts.facts.filter((t) => !(t.repository === finding.repository && t.identity === identity));
  const decision: TriageFact | undefined =
    cmd.state === "open"
      ? undefined
      : {
          repository: finding.repository,
          identity,
          state: cmd.state,
          reason: cmd.reason.trim(),
          ...(cmd.expiresAt ? { expires_at: new Date(cmd.expiresAt).toISOString() } : {}),
          updated_at: facts.now,
        };
  // The finding as it is with the decision (taken back: as its evaluations say), announced with it.
  const after = derive(facts, decision ? [...others, decision] : others).find((f) => f.id === cmd.findingId)!;
  const data: FindingUpdatedData = {
    organization_id: cmd.organizationId,
    previous_state: finding.status,
    cause: "triage",
    finding: findingFields(after),
  };
  const events = [
    deps.outbox.event(TOPICS.findingUpdated, { source: "/compliance", subject: after.id, data }),
    // Who decided what, and why: the state, reason and expiry before and after.
    auditChangeEvent(deps.outbox, deps.clock, "/compliance", {
      organizationId: cmd.organizationId,
      type: "finding.triaged",
      context: cmd.audit,
      targetType: "finding",
      targetId: after.id,
      changes: {
        state: { before: finding.status, after: after.status },
        reason: { before: finding.triage?.reason ?? null, after: decision?.reason ?? null },
        expires_at: { before: finding.triage?.expires_at ?? null, after: decision?.expires_at ?? null },
      },
      data: {
        repository: after.repository,
        ref: after.ref,
        file: after.file,
        policy_id: after.policy_id,
        rule_id: after.rule_id,
      },
    }),
  ];
  if (decision) await deps.triage.put(cmd.organizationId, decision, events);
  else await deps.triage.remove(cmd.organizationId, finding.repository, identity, events);
  return after;
}

/**
 * A finding's fields as the API and events carry them: where, what and its state, never a
 * matched value (the triage fields absent when none is in force).
 */
export function findingFields(f: FindingView) {
  return {
    id: f.id,
    repository: f.repository,
    ref: f.ref,
    policy_id: f.policy_id,
    rule_id: f.rule_id,
    file: f.file,
    line: f.line,
    severity: f.severity,
    fingerprint: f.fingerprint,
    state: f.status,
    triage_reason: f.triage?.reason,
    triage_expires_at: f.triage?.expires_at,
    triaged_at: f.triage?.updated_at,
  };
}
