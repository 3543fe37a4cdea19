// What the compliance service keeps of the evaluation service's events: the facts evidence and
// findings are derived from. A leaf module, so that both can name them without importing each
// other.
export interface EvaluationFact {
  id: string;
  repository: string;
  ref: string;
  completed_at: string;
  passed: boolean;
  /** Policies that ran. */
  policies: string[];
  /** Files the engine read; absent on evaluations recorded before they were (no evidence). */
  scanned_paths?: string[];
}

export interface ViolationFact {
  id: string;
  evaluation_id: string;
  policy_id: string;
  rule_id: string;
  severity: string;
  file: string;
  line: number;
  message: string;
  /** The engine's fingerprint (absent on records projected before it was kept). */
  fingerprint?: string;
}

export interface BypassFact {
  id: string;
  evaluation_id: string;
  repository: string;
  ref: string;
  bypassed_at: string;
  policy_id: string;
  rule_id: string;
  file: string;
  line: number;
  reason: string;
  /** The suppressed finding's fingerprint (absent on records projected before it was kept). */
  fingerprint?: string;
}
