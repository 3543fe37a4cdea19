import type { Bus } from "@verdict/bus";
import type { Clock, Logger } from "@verdict/kit";
import type { Outbox } from "@verdict/outbox";
import type { Catalog } from "./domain/catalogs/types.js";
import type { PolicyInfo } from "./domain/evidence.js";
import type { FairPool } from "@verdict/runtime";
import type { ComplianceRepo } from "./repo.js";
import type { RenderJob } from "./renderWorker.js";
import type { ReportKey } from "./domain/reportKey.js";
import type { TriageRepo } from "./triageRepo.js";

/** What the compliance service needs from the policy service. */
export interface PolicySource {
  /** Every policy of the organization (enabled or not), with its rule ids. */
  list(organizationId: string): Promise<PolicyInfo[]>;
}

/** What it needs from the identity service. */
export interface OrganizationSource {
  /** Its name, and its description for the PDF's scope page (empty strings when not described). */
  profile(organizationId: string): Promise<OrganizationProfile>;
}

export interface OrganizationProfile {
  name: string;
  systemDescription: string;
  reportScope: string;
}

export interface ReportLinks {
  /** HMAC key of download links. */
  signingKey: string;
  /** How long a link issued by GET /compliance/reports/{id} stays valid. */
  ttlSeconds: number;
  /** Public base URL of the REST API, e.g. http://localhost:8080/v1 (read when a link is made). */
  apiBaseUrl: () => string;
}

export interface ComplianceDeps {
  repo: ComplianceRepo;
  /** Members' triage of findings (false positive, accepted risk). */
  triage: TriageRepo;
  bus: Bus;
  /** Every event that announces a state change is written with it (see @verdict/outbox). */
  outbox: Outbox;
  clock: Clock;
  logger: Logger;
  catalogs: readonly Catalog[];
  policies: PolicySource;
  organizations: OrganizationSource;
  links: ReportLinks;
  reports: {
    /** Worker threads that assemble and render report files, shared fairly between organizations. */
    renderer: Pick<FairPool<RenderJob, Uint8Array>, "run">;
    /** A report still rendering after this long fails with a reason. */
    timeoutMs: number;
    /** Signs every report file as it is stored (its public half is served to auditors). */
    key: ReportKey;
  };
}
