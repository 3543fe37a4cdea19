export const PLANS = ["free", "team", "business", "enterprise"] as const;
export type Plan = (typeof PLANS)[number];
export const SEVERITIES = ["error", "warning"] as const;

export interface RateLimitOverrides {
  per_minute?: number;
  per_hour?: number;
  per_day?: number;
  evaluations_create_per_minute?: number;
  evaluations_list_per_minute?: number;
  reports_create_per_hour?: number;
  reads_per_minute?: number;
}

export interface OrgSettings {
  default_severity: "error" | "warning";
  require_evaluation_pass: boolean;
  /** Whether inline `verdict-ignore` comments silence findings (each is recorded as a bypass). */
  allow_inline_suppression: boolean;
  /** Members without a second factor must enrol one before anything else. */
  require_mfa: boolean;
  /** The evidence report's scope page (absent: not described). */
  system_description?: string;
  report_scope?: string;
  /** Evaluations must name a repository connected through a provider connection. */
  require_connected_repository: boolean;
  /** Audit events older than this many days are deleted behind a checkpoint (null: kept forever). */
  audit_retention_days: number | null;
  /** Opt-in: the evaluation service asks these providers whether a found credential works. */
  live_verification: LiveVerificationSetting;
}

export interface LiveVerificationSetting {
  enabled: boolean;
  providers: string[];
}

export const DEFAULT_SETTINGS: OrgSettings = {
  default_severity: "error",
  require_evaluation_pass: true,
  allow_inline_suppression: true,
  require_mfa: false,
  require_connected_repository: false,
  audit_retention_days: null,
  live_verification: { enabled: false, providers: [] },
};

/**
 * The live verification setting after a change: what is not given stays; turned on with no
 * provider named, every provider supported now (stored as a list, so a provider added later is
 * not asked until an admin names it).
 */
export function changedLiveVerification(
  current: LiveVerificationSetting,
  change: { enabled?: boolean | undefined; providers?: readonly string[] | undefined },
  supported: readonly string[],
): LiveVerificationSetting {
  const enabled = change.enabled ?? current.enabled;
  let providers = change.providers ? [...new Set(change.providers)] : current.providers;
  if (enabled && !providers.length) providers = [...supported];
  return { enabled, providers };
}

/** Settings stored before a setting existed read as its default. */
export function withDefaults(settings: Partial<OrgSettings> | undefined): OrgSettings {
  return { ...DEFAULT_SETTINGS, ...settings };
}

/** Drops unset and non-positive values: an override is a positive whole number or absent. */
export function cleanLimits(limits: RateLimitOverrides | undefined): RateLimitOverrides {
  const out: RateLimitOverrides = {};
  for (const [k, v] of Object.entries(limits ?? {})) {
    if (typeof v === "number" && Number.isInteger(v) && v > 0) out[k as keyof RateLimitOverrides] = v;
  }
  return out;
}
