// The one fingerprint of a finding (DESIGN.md, "Where code changes happen"): the policy, the
// rule, the file and a digest of the normalized matched value. Not the line, so a finding keeps
// it when lines move or other lines change; the value's digest, so a new secret on an old line
// is a new finding (a position-only fingerprint would hide it). The value itself never appears:
// only a truncated SHA-256 of it, among other fields, under a versioned label.
import { createHash } from "node:crypto";

const LABEL = "verdict-finding/v1";

/** The matched text as compared: runs of white space as one space, none at the ends (re-indenting changes nothing). */
export function normalizeMatch(value: string): string {
  return value.replace(/\s+/g, " ").trim();
}

/** 32 hex characters (128 bits). */
export function fingerprintOf(finding: { policy_id: string; rule_id: string; file: string }, value: string): string {
  return createHash("sha256")
    .update([LABEL, finding.policy_id, finding.rule_id, finding.file, normalizeMatch(value)].join("\0"))
    .digest("hex")
    .slice(0, 32);
}
