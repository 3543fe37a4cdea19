// The evaluation service's collection, through the Store port. File contents are never stored:
// only the result of checking them.
import type { Collection, Store } from "@verdict/store";
import type { EvaluationStatus, Summary } from "./domain/evaluation.js";
import type { Finding } from "./domain/matcher.js";

export interface Violation extends Finding {
  id: string;
}

export interface EvaluationRecord {
  id: string;
  organization_id: string;
  status: EvaluationStatus;
  repository: string;
  ref: string;
  base_ref: string;
  created_at: string;
  completed_at: string | null;
  passed: boolean | null;
  summary: Summary;
  violations: Violation[];
  failure_reason: string | null;
  /** The policies that ran: evidence of what was checked. */
  policies: string[];
  deleted_at: null;
}

/** What is left of a deleted evaluation: enough to answer 410 rather than 404. */
export interface EvaluationTombstone {
  id: string;
  organization_id: string;
  deleted_at: string;
}

export type EvaluationDoc = EvaluationRecord | EvaluationTombstone;

export function isTombstone(doc: EvaluationDoc): doc is EvaluationTombstone {
  return doc.deleted_at !== null;
}

/** Fields dropped when an evaluation becomes a tombstone. */
export const TOMBSTONE_DROPS: readonly (keyof EvaluationRecord)[] = [
  "status",
  "repository",
  "ref",
  "base_ref",
  "created_at",
  "completed_at",
  "passed",
  "summary",
  "violations",
  "failure_reason",
  "policies",
];

export class EvaluationRepo {
  readonly evaluations: Collection<EvaluationDoc>;

  constructor(store: Store) {
    this.evaluations = store.collection<EvaluationDoc>("evaluation_evaluations");
  }

  async init(): Promise<void> {
    // One index per list filter, each ending in id: the list sorts and pages by id.
    await this.evaluations.ensureIndexes([
      { name: "org_id", fields: { organization_id: 1, id: 1 } },
      { name: "org_repository_id", fields: { organization_id: 1, repository: 1, id: 1 } },
      { name: "org_status_id", fields: { organization_id: 1, status: 1, id: 1 } },
      { name: "org_passed_id", fields: { organization_id: 1, passed: 1, id: 1 } },
    ]);
  }
}
