// Live coverage, computed on every call from the organization's policies as they are now.
import { errors } from "@verdict/kit";
import { frameworkCoverage, percent, type FrameworkCoverage } from "../domain/coverage.js";
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
}

export async function getFramework(
  deps: ComplianceDeps,
  { organizationId, frameworkId }: GetFrameworkQuery,
): Promise<FrameworkCoverage> {
  const catalog = deps.catalogs.find((c) => c.id === frameworkId);
  if (!catalog) throw errors.notFound("framework", frameworkId);
  return frameworkCoverage(catalog, await deps.policies.list(organizationId));
}
