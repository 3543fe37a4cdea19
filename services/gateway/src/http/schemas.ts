// The REST contract's schemas: the gateway validates with them and the OpenAPI document is
// generated from them, so the two cannot drift. Ids in `.meta({ id })` become components.
import { API_SCOPES, LIVE_VERIFICATION_PROVIDERS } from "@verdict/kit";
import { z } from "zod";
import { ISO_OR_DATE, isRealDay, refuseImpossibleDays } from "./restTypes.js";
import { OrganizationSchema } from "../gen/identity.rest.js";

// The evaluation, policy and repository routes' schemas are generated from the proto files (src/gen).
export { ISO_OR_DATE, isRealDay, refuseImpossibleDays };

export const MAX_FILE_BYTES = 1_048_576;
export const MAX_FILES = 1000;

const SEVERITY = z.enum(["error", "warning"]);
export const SCOPE = z.enum(API_SCOPES);
const ISO = z.string().meta({ format: "date-time" });
const REPO_NAME = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+){1,21}$/, {
    message: "must have the form <owner>/<repo> (a GitLab project in subgroups: <group>/<subgroup>/<project>)",
  })
  .meta({ examples: ["acme/payments"] });

// ---------- errors ----------

export const FieldErrorSchema = z
  .object({
    field: z.string(),
    message: z.string(),
    code: z.enum(["REQUIRED", "INVALID_FORMAT", "MAX_SIZE_EXCEEDED", "MIN_SIZE_REQUIRED", "INVALID_ENUM"]),
    max: z.number().int().optional(),
    min: z.number().int().optional(),
  })
  .meta({ id: "FieldError" });

export const ErrorSchema = z
  .object({
    error: z.enum([
      "unauthorized",
      "forbidden",
      "validation_error",
      "not_found",
      "method_not_allowed",
      "conflict",
      "rate_limited",
      "internal_error",
      "service_unavailable",
    ]),
    code: z.string(),
    message: z.string(),
    required_scope: z.string().optional(),
    details: z.record(z.string(), z.unknown()).optional(),
    request_id: z.string().regex(/^req_/),
  })
  .meta({ id: "Error", description: "Every error. `details.errors` lists field errors for VALIDATION_FAILED." });

// ---------- health and auth ----------

export const HealthSchema = z
  .object({ status: z.literal("healthy"), version: z.string(), timestamp: ISO })
  .meta({ id: "Health" });
export const ReadinessSchema = z
  .object({
    status: z.literal("ready"),
    // integrations: where it is deployed (always in the all-in-one process).
    services: z.partialRecord(
      z.enum(["identity", "policy", "evaluation", "compliance", "webhooks", "integrations"]),
      z.literal("SERVING"),
    ),
  })
  .meta({ id: "Readiness" });
export const AuthHealthSchema = z
  .object({
    status: z.literal("healthy"),
    authenticated: z.boolean(),
    organization: z.string(),
    scopes: z.array(z.string()),
  })
  .meta({ id: "AuthHealth" });
export const KeyVerificationSchema = z
  .object({
    valid: z.boolean(),
    key_id: z.string(),
    scopes: z.array(z.string()),
    expires_at: ISO.nullable(),
    organization: z.string(),
  })
  .meta({ id: "KeyVerification" });

// ---------- evaluations ----------

export const FILE_STATUSES = [
  "added",
  "modified",
  "removed",
  "deleted",
  "renamed",
  "copied",
  "changed",
  "unchanged",
] as const;

export const FileInputSchema = z
  .object({
    path: z.string().min(1).max(4096),
    content: z
      .string()
      .max(MAX_FILE_BYTES)
      .refine((v) => Buffer.byteLength(v, "utf8") <= MAX_FILE_BYTES, {
        message: `content must be at most ${MAX_FILE_BYTES} bytes (UTF-8)`,
        params: { code: "MAX_SIZE_EXCEEDED", max: MAX_FILE_BYTES },
      }),
    status: z.enum(FILE_STATUSES).default("modified"),
  })
  .strict()
  .meta({ id: "FileInput" });

export const CreateEvaluationSchema = z
  .object({
    repository: REPO_NAME,
    ref: z.string().min(1).max(255),
    base_ref: z.string().min(1).max(255).optional(),
    files: z.array(FileInputSchema).min(1).max(MAX_FILES),
    policies: z.array(z.string().min(1).max(64)).max(200).optional(),
    bypass_reason: z.string().min(1).max(500).optional().meta({
      description:
        "Bypass this evaluation's findings with this reason (a push let through with the pre-receive hook's verdict-bypass push option): each is recorded as a bypass event (a suppression with the reason) instead of a violation",
    }),
  })
  .strict()
  .meta({ id: "CreateEvaluation" });

// ---------- organization ----------

const RateLimitsSchema = z
  .object({
    per_minute: z.number().int().min(1).max(10_000_000).optional(),
    per_hour: z.number().int().min(1).max(100_000_000).optional(),
    per_day: z.number().int().min(1).max(1_000_000_000).optional(),
    evaluations_create_per_minute: z.number().int().min(1).max(10_000_000).optional(),
    evaluations_list_per_minute: z.number().int().min(1).max(10_000_000).optional(),
    reports_create_per_hour: z.number().int().min(1).max(10_000_000).optional(),
    reads_per_minute: z.number().int().min(1).max(10_000_000).optional(),
  })
  .strict()
  .meta({
    id: "RateLimits",
    description: "Per-organization overrides of the instance's rate limits; unset keeps the default.",
  });

export const UpdateOrganizationSchema = z
  .object({
    name: z.string().min(1).max(200).optional(),
    settings: z
      .object({
        default_severity: SEVERITY.optional(),
        require_evaluation_pass: z.boolean().optional(),
        allow_inline_suppression: z.boolean().optional(),
        require_mfa: z.boolean().optional(),
        system_description: z.string().max(4000).optional(),
        report_scope: z.string().max(4000).optional(),
        require_connected_repository: z.boolean().optional(),
        audit_retention_days: z.number().int().min(90).max(36_500).nullable().optional(),
        live_verification: z
          .object({
            enabled: z.boolean().optional(),
            // Empty, as an organization that never named one answers it: unchanged, so what
            // GET /v1/organization answers can be sent back as it is.
            providers: z.array(z.enum(LIVE_VERIFICATION_PROVIDERS)).optional(),
          })
          .strict()
          .optional()
          .meta({
            description:
              "What is left out (or an empty provider list) stays; turned on with no provider named (now or before), every provider supported now",
          }),
      })
      .strict()
      .optional(),
  })
  .strict()
  .meta({ id: "UpdateOrganization" });

export const CreateOrganizationSchema = z
  .object({
    name: z.string().min(1).max(200),
    plan: z.enum(["free", "team", "business", "enterprise"]).default("free"),
    rate_limits: RateLimitsSchema.optional(),
  })
  .strict()
  .meta({ id: "CreateOrganization" });

export const UpdateOrganizationLimitsSchema = z
  .object({ rate_limits: RateLimitsSchema })
  .strict()
  .meta({ id: "UpdateOrganizationLimits" });

export const OperatorOrganizationSchema = OrganizationSchema.extend({ rate_limits: RateLimitsSchema }).meta({
  id: "OperatorOrganization",
});

// ---------- API keys ----------

export const ApiKeySchema = z
  .object({
    id: z.string().regex(/^key_/),
    name: z.string(),
    scopes: z.array(z.string()),
    environment: z.enum(["prod", "test"]),
    prefix: z.string().meta({ description: "The first characters of the key, to recognise it" }),
    status: z.enum(["active", "expired", "revoked"]),
    created_at: ISO,
    expires_at: ISO.nullable(),
    last_used_at: ISO.nullable().meta({ description: "Updated at most once a minute" }),
    revoked_at: ISO.nullable(),
    ip_allowlist: z.string().nullable().meta({ description: "Comma-separated CIDR ranges" }),
  })
  .meta({ id: "ApiKey" });

export const ApiKeyListSchema = z.object({ api_keys: z.array(ApiKeySchema) }).meta({ id: "ApiKeyList" });

export const CreateApiKeySchema = z
  .object({
    name: z.string().min(1).max(100),
    scopes: z.array(SCOPE).min(1).max(7),
    expiration: z.enum(["30m", "24h", "7d", "90d", "never"]).default("90d"),
    environment: z
      .enum(["prod", "test"])
      .optional()
      .meta({ description: "Default: the calling key's environment. A test key creates test keys only" }),
    ip_allowlist: z
      .string()
      .max(4000)
      // Every comma-separated entry holds an address: `,,,` must not read as "no restriction".
      .regex(/^$|^ *[0-9A-Fa-f:./]+ *(, *[0-9A-Fa-f:./]+ *)*$/, {
        message: "must be comma-separated CIDR ranges or IP addresses, none of them empty",
      })
      .optional()
      .meta({
        description:
          "Comma-separated CIDR ranges, e.g. 10.0.0.0/8,192.168.1.7; within the calling key's allowlist. Omitted: the calling key's allowlist",
      }),
  })
  .strict()
  .meta({
    id: "CreateApiKey",
    description:
      "The new key must lie within the calling key, as GitHub's fine-grained tokens do: no scope the caller lacks, no expiry after the caller's, " +
      "no `prod` key from a `test` one, and an IP allowlist within the caller's. Otherwise 422 VALIDATION_FAILED names each offending field " +
      "(`scopes`, `expiration`, `environment`, `ip_allowlist`) with code INVALID_ENUM.",
  });

export const CreatedApiKeySchema = ApiKeySchema.extend({
  key: z.string().meta({ description: "The key value. Shown once: store it now." }),
}).meta({ id: "CreatedApiKey" });

export const CreatedOrganizationSchema = z
  .object({ organization: OperatorOrganizationSchema, api_key: CreatedApiKeySchema })
  .meta({ id: "CreatedOrganization" });

export function IdParam<N extends string>(name: N, prefix?: string) {
  const id = z.string().min(1).max(128);
  return z.object({ [name]: prefix ? id.meta({ examples: [`${prefix}_01jd0000000000000000000000`] }) : id } as Record<
    N,
    typeof id
  >);
}
