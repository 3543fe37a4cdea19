// The compliance service's configuration variables, declared once: its own process (bin.ts)
// and the all-in-one process read the same ones (docs/configuration.md).
import { z } from "zod";
import { persistedSecret } from "@verdict/kit";
import {
  addressVar,
  DEFAULT_ADDRESSES,
  DEFAULT_GRPC_PORTS,
  grpcServiceConfig,
  positiveInt,
  publicUrlVar,
  documentVariables,
} from "@verdict/runtime";
import type { ComplianceServiceOptions } from "./main.js";
import { generateReportKeyPem, reportKeyProblem } from "./domain/reportKey.js";

/** A PEM from the environment, where a one-line value may write its line breaks as `\n`. */
const reportPrivateKey = z
  .string()
  .transform((v) => v.replace(/\\n/g, "\n").trim())
  .superRefine((pem, ctx) => {
    const problem = reportKeyProblem(pem);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const complianceConfig = z.object({
  /** Public base URL (scheme and host) of the API, for download links and OSCAL evidence links. */
  VERDICT_PUBLIC_URL: publicUrlVar(),
  /** HMAC key of download links; every compliance replica needs the same. Unset: kept in the data dir. */
  VERDICT_REPORT_SIGNING_KEY: z.string().min(32).optional(),
  /** Ed25519 private key (PKCS#8 PEM) that signs report files; every compliance replica needs the same. Unset: kept in the data dir. */
  VERDICT_REPORT_PRIVATE_KEY: reportPrivateKey.optional(),
  /** How long a report download link stays valid. */
  VERDICT_REPORT_LINK_TTL_SECONDS: positiveInt(3600),
  /** Worker threads that render report files (PDF, OSCAL). */
  VERDICT_REPORT_WORKERS: z.coerce.number().int().positive().max(64).default(1),
  /** A report still generating after this long is failed (its generation was cut short). */
  VERDICT_REPORT_TIMEOUT_MS: z.coerce.number().int().min(100).default(600_000),
  /** How often the compliance service looks for accepted risks that expired, to announce them. */
  VERDICT_TRIAGE_EXPIRY_INTERVAL_MS: z.coerce.number().int().min(100).default(60_000),
});

/** Where an instance keeps the report private key it generated (VERDICT_REPORT_PRIVATE_KEY unset). */
export const REPORT_PRIVATE_KEY_FILE = "report-private-key.pem";

export type ComplianceConfig = z.infer<typeof complianceConfig>;

/** The compliance service as its own process (bin.ts). */
export const complianceProcessConfig = grpcServiceConfig(DEFAULT_GRPC_PORTS.compliance).extend({
  ...complianceConfig.shape,
  VERDICT_POLICY_ADDRESS: addressVar(DEFAULT_ADDRESSES.policy),
  VERDICT_IDENTITY_ADDRESS: addressVar(DEFAULT_ADDRESSES.identity),
});

/**
 * The service options these variables set. `apiOrigin` gives the API's origin when
 * VERDICT_PUBLIC_URL is unset; it is read each time a link is made (all-in-one learns its HTTP
 * port only once the gateway listens).
 */
export function complianceOptions(
  c: ComplianceConfig,
  dataDir: string,
  apiOrigin: () => string,
): Pick<
  ComplianceServiceOptions,
  | "signingKey"
  | "reportPrivateKey"
  | "linkTtlSeconds"
  | "reportTimeoutMs"
  | "apiBaseUrl"
  | "reportWorkers"
  | "triageExpiryIntervalMs"
> {
  const publicUrl = c.VERDICT_PUBLIC_URL?.replace(/\/+$/, "");
  return {
    signingKey: persistedSecret(c.VERDICT_REPORT_SIGNING_KEY, dataDir, "report-signing.key"),
    reportPrivateKey: persistedSecret(
      c.VERDICT_REPORT_PRIVATE_KEY,
      dataDir,
      REPORT_PRIVATE_KEY_FILE,
      generateReportKeyPem,
    ),
    linkTtlSeconds: c.VERDICT_REPORT_LINK_TTL_SECONDS,
    reportTimeoutMs: c.VERDICT_REPORT_TIMEOUT_MS,
    apiBaseUrl: () => `${publicUrl ?? apiOrigin()}/v1`,
    reportWorkers: c.VERDICT_REPORT_WORKERS,
    triageExpiryIntervalMs: c.VERDICT_TRIAGE_EXPIRY_INTERVAL_MS,
  };
}

documentVariables({
  VERDICT_REPORT_WORKERS: "Worker threads that assemble and render report files (PDF, OSCAL), at a low CPU priority",
  VERDICT_REPORT_SIGNING_KEY:
    "HMAC key (at least 32 characters) of report download links; unset: generated once and kept in `<data dir>/report-signing.key`. Changing it invalidates issued links",
  VERDICT_REPORT_PRIVATE_KEY:
    "Ed25519 private key (PKCS#8 PEM; line breaks may be written `\\n`) that signs every report file; its public key is served at `/.well-known/verdict-report-key.pem`. Unset: generated once and kept in `<data dir>/report-private-key.pem`. Every compliance replica needs the same one; changing it leaves earlier reports verifiable only with the old public key",
  VERDICT_REPORT_LINK_TTL_SECONDS: "How long a report download link stays valid",
  VERDICT_REPORT_TIMEOUT_MS:
    "A report still `generating` after this long (at least 100) becomes `failed` (checked every minute and at start-up); its rendering on a report thread is stopped at the same deadline",
  VERDICT_TRIAGE_EXPIRY_INTERVAL_MS:
    "How often (at least 100) the compliance service looks for accepted risks that expired: each is announced once (`finding.updated` with `cause` `accepted_risk_expired`, and the audit event `finding.accepted_risk_expired`), however many replicas sweep. The finding is open again from its expiry on, whenever the sweep runs",
});
