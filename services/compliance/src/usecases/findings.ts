// Findings across evaluations (the states of domain/findings.ts, from the evidence projection and
// the members' triage): list them, and triage one. Every call is scoped to one organization.
import { errors, type FieldError } from "@verdict/kit";
import type { ComplianceDeps } from "../deps.js";
import { findingId, identityOf, trackFindings, type FindingStatus, type TrackedFinding } from "../domain/findings.js";

/** How far back the findings list looks by default. */
export const FINDINGS_DEFAULT_DAYS = 90;
const DAY_MS = 24 * 60 * 60 * 1000;

export interface FindingView extends TrackedFinding {
  id: string;
}

/** Every finding of the organization seen in evaluations completed since `since`, with its state now. */
async function findingsSince(deps: ComplianceDeps, organizationId: string, since: string): Promise<FindingView[]> {
  const now = deps.clock.now();
  const { evaluations, violations, bypasses } = await deps.repo.evidenceFor(organizationId, {
    from: since,
    to: new Date(now.getTime() + 1).toISOString(),
  });
  const facts = await deps.triage.forOrganization(organizationId);
  return trackFindings(evaluations, violations, bypasses, { facts, now: now.toISOString() }).map((f) => ({
    ...f,
    id: findingId(f),
  }));
}

const defaultSince = (deps: ComplianceDeps) =>
  new Date(deps.clock.now().getTime() - FINDINGS_DEFAULT_DAYS * DAY_MS).toISOString();

export interface ListFindingsCommand {
  organizationId: string;
  repository?: string;
  state?: FindingStatus;
  /** ISO 8601; default FINDINGS_DEFAULT_DAYS ago. */
  since?: string;
  limit: number;
}

export async function listFindings(
  deps: ComplianceDeps,
  cmd: ListFindingsCommand,
): Promise<{ findings: FindingView[]; hasMore: boolean }> {
  const all = await findingsSince(deps, cmd.organizationId, cmd.since ?? defaultSince(deps));
  const matching = all
    .filter((f) => (!cmd.repository || f.repository === cmd.repository) && (!cmd.state || f.status === cmd.state))
    .sort((a, b) => (a.last_seen.at < b.last_seen.at ? 1 : a.last_seen.at > b.last_seen.at ? -1 : 0));
  return { findings: matching.slice(0, cmd.limit), hasMore: matching.length > cmd.limit };
}

export interface UpdateFindingCommand {
  organizationId: string;
  findingId: string;
  state: "open" | "false_positive" | "accepted_risk";
  reason: string;
  expiresAt?: string;
}

/**
 * Records a member's triage of a finding seen in the last FINDINGS_DEFAULT_DAYS days (another
 * organization's, or an unknown one, is not found), or takes it back (`open`); the finding with
 * its new state.
 */
export async function updateFinding(deps: ComplianceDeps, cmd: UpdateFindingCommand): Promise<FindingView> {
  const find = async () =>
    (await findingsSince(deps, cmd.organizationId, defaultSince(deps))).find((f) => f.id === cmd.findingId);
  const finding = await find();
  if (!finding) throw errors.notFound("finding", cmd.findingId);
  const now = deps.clock.now().toISOString();
  const problems: FieldError[] = [];
  if (cmd.state !== "open" && !cmd.reason.trim())
    problems.push({ field: "reason", code: "REQUIRED", message: `reason is required to mark a finding ${cmd.state}` });
  if (cmd.state === "accepted_risk" && !cmd.expiresAt)
    problems.push({ field: "expires_at", code: "REQUIRED", message: "an accepted risk needs expires_at" });
  if (cmd.expiresAt && cmd.state !== "accepted_risk")
    problems.push({ field: "expires_at", code: "INVALID_FORMAT", message: "only an accepted risk expires" });
  if (cmd.state === "accepted_risk" && cmd.expiresAt && new Date(cmd.expiresAt).toISOString() <= now)
    problems.push({ field: "expires_at", code: "INVALID_FORMAT", message: "expires_at must be in the future" });
  if (cmd.state !== "open" && finding.status === "fixed")
    problems.push({ field: "state", code: "INVALID_ENUM", message: "a fixed finding is no longer in the code" });
  if (problems.length) throw errors.unprocessable(problems, problems[0]!.message);
  if (cmd.state === "open") await deps.triage.remove(cmd.organizationId, finding.repository, identityOf(finding));
  else
    await deps.triage.put(cmd.organizationId, {
      repository: finding.repository,
      identity: identityOf(finding),
      state: cmd.state,
      reason: cmd.reason.trim(),
      ...(cmd.expiresAt ? { expires_at: new Date(cmd.expiresAt).toISOString() } : {}),
      updated_at: now,
    });
  return (await find())!;
}
