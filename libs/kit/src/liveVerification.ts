// Live verification (an organization setting, docs/detection.md): the providers the evaluation
// service can ask whether a found credential works. Identity validates the setting against this
// list, the gateway's schema names it, the evaluation service has one verifier for each.

/** The providers a credential can be verified with, in the order the docs list them. */
export const LIVE_VERIFICATION_PROVIDERS = ["aws", "github", "slack", "stripe"] as const;
export type LiveVerificationProvider = (typeof LIVE_VERIFICATION_PROVIDERS)[number];

/** What a violation says of its credential (Violation.verification). */
export type VerificationState = "live" | "revoked" | "unknown" | "not_checked";
