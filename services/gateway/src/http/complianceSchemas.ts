// The report routes' schemas, written by hand as the routes are (routes/compliance.ts says why);
// the overview's and a framework's are generated from the proto (src/gen/compliance.rest.ts).
import { z } from "zod";

const ISO = z.string().meta({ format: "date-time" });
const DATE = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, { message: "must be a date YYYY-MM-DD" })
  .meta({ format: "date", description: "Calendar date YYYY-MM-DD (UTC); the range is inclusive" });

export const DateRangeSchema = z
  .object({ start: DATE, end: DATE })
  .strict()
  .meta({ id: "DateRange", examples: [{ start: "2026-01-01", end: "2026-01-31" }] });

export const CreateReportSchema = z
  .object({
    frameworks: z
      .array(
        z
          .string()
          .min(1)
          .max(64)
          .meta({ examples: ["nist-ssdf", "soc2", "owasp-asvs"] }),
      )
      .min(1)
      .max(32)
      .meta({ description: "Framework ids from GET /v1/compliance/overview", examples: [["nist-ssdf", "soc2"]] }),
    format: z.enum(["pdf", "oscal"]).meta({
      description:
        "pdf: one document; oscal: a ZIP with an OSCAL 1.1.2 catalog, assessment results and POA&M per framework",
    }),
    date_range: z.union([
      DateRangeSchema,
      z
        .string()
        .regex(/^[1-9]\d{0,3}d$/, { message: "must be {start, end} or <n>d" })
        .meta({ description: "The last n days ending today (UTC), e.g. 90d", examples: ["90d"] }),
    ]),
  })
  .strict()
  .meta({ id: "CreateReport" });

export const ReportSchema = z
  .object({
    report_id: z.string().regex(/^report_/),
    status: z.enum(["generating", "completed", "failed"]),
    download_url: z.string().nullable().meta({
      description:
        "Signed link that needs no API key and expires (download_expires_at); null unless completed. Each GET issues a fresh one.",
    }),
    download_expires_at: ISO.nullable(),
    frameworks: z.array(z.string()),
    format: z.enum(["pdf", "oscal"]),
    date_range: z.object({ start: DATE, end: DATE }),
    created_at: ISO,
    completed_at: ISO.nullable(),
    failure_reason: z.string().nullable(),
    size_bytes: z.number().int().nullable(),
    sha256: z
      .string()
      .regex(/^[0-9a-f]{64}$/)
      .nullable()
      .meta({ description: "SHA-256 of the report file (hex); null unless completed" }),
    signature: z.string().nullable().meta({
      description:
        "Detached Ed25519 signature of the report file's bytes (base64 of 64 bytes), by the instance's report key; null unless completed. `verdict reports verify FILE` checks it, or `openssl pkeyutl -verify -pubin -inkey verdict-report-key.pem -rawin -in FILE -sigfile FILE.sig` after base64-decoding it",
    }),
    signature_algorithm: z.enum(["Ed25519"]).nullable(),
    signature_key_id: z
      .string()
      .nullable()
      .meta({ description: "SHA-256 (hex) of the raw public key that verifies the signature" }),
    public_key_url: z.string().meta({
      description: "Where the instance's report public key is served (PEM, no API key; the JWK beside it at .jwk)",
    }),
  })
  .meta({ id: "Report" });

export const ReportKeyJwkSchema = z
  .object({
    kty: z.literal("OKP"),
    crv: z.literal("Ed25519"),
    x: z.string().meta({ description: "The raw 32-byte public key, base64url" }),
    kid: z.string().meta({ description: "SHA-256 (hex) of the raw public key: a report's signature_key_id" }),
    alg: z.literal("EdDSA"),
    use: z.literal("sig"),
  })
  .meta({ id: "ReportKeyJwk" });

export const DownloadQuery = z
  .object({
    expires: z.string().regex(/^\d{1,12}$/, { message: "must be a unix time in seconds" }),
    signature: z.string().min(1).max(128),
  })
  .strict();
