// Live coverage, computed on every call from the organization's policies as they are now.
import { errors } from "@verdict/kit";
import { frameworkCoverage, percent, type FrameworkCoverage } from "../domain/coverage.js";
import { instants, parseLastDays, type DateRange } from "../domain/dateRange.js";
import { assembleEvidence, type ControlStatus } from "../domain/evidence.js";
import type { ComplianceDeps } from "../deps.js";

export interface Overview {
  frameworks: { id: string; name: string; coverage: number; controls: { total: number; covered: number } }[];
  regulations: { id: string; name: string; coverage: number }[];
}

export interface GetOverviewQuery {
  organizationId: string;
}

export async function getOverview(deps: ComplianceDeps, { organizationId }: GetOverviewQuery): Promise<Overview> {
  const policies = await deps.policies.list(organizationId);
  const out: Overview = { frameworks: [], regulations: [] };
  for (const catalog of deps.catalogs) {
    const c = frameworkCoverage(catalog, policies);
    if (catalog.kind === "regulation")
      out.regulations.push({ id: catalog.id, name: catalog.name, coverage: percent(c.covered, c.total) });
    else
      out.frameworks.push({
        id: catalog.id,
        name: catalog.name,
        coverage: c.coverage,
        controls: { total: c.total, covered: c.covered },
      });
  }
  return out;
}

export interface GetFrameworkQuery {
  organizationId: string;
  frameworkId: string;
  /** The evidence window: the last n days ending today (the gateway checks 1..366); 0: DEFAULT_EVIDENCE_DAYS. */
  days: number;
}

/** The evidence window of a framework's detail when a caller names none (REST defaults to it too). */
const DEFAULT_EVIDENCE_DAYS = 90;

export interface FrameworkDetail extends Omit<FrameworkCoverage, "controls"> {
  controls: (FrameworkCoverage["controls"][number] & { evidence: ControlStatus })[];
  evidence_range: DateRange;
}

/** Live coverage, and each control's result over the evidence window (as a report of it would say). */
export async function getFramework(
  deps: ComplianceDeps,
  { organizationId, frameworkId, days }: GetFrameworkQuery,
): Promise<FrameworkDetail> {
  const catalog = deps.catalogs.find((c) => c.id === frameworkId);
  if (!catalog) throw errors.notFound("framework", frameworkId);
  const now = deps.clock.now();
  const { range, problems } = parseLastDays(`${days || DEFAULT_EVIDENCE_DAYS}d`, now, "days");
  if (!range) throw errors.unprocessable(problems, problems[0]!.message);
  const policies = await deps.policies.list(organizationId);
  const records = await deps.repo.evidenceFor(organizationId, instants(range));
  const evidence = assembleEvidence({
    organizationId,
    reportId: "",
    range,
    generatedAt: now.toISOString(),
    catalogs: [catalog],
    policies,
    ...records,
  }).frameworks[0]!;
  return {
    ...evidence.coverage,
    controls: evidence.coverage.controls.map((c, i) => ({ ...c, evidence: evidence.controls[i]!.status })),
    evidence_range: range,
  };
}
