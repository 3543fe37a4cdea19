// Generated gRPC stubs (ts-proto, see buf.gen.yaml) and the proto sources for server reflection.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { loadSync, type PackageDefinition } from "@grpc/proto-loader";

export * as identityV1 from "./gen/verdict/identity/v1/identity.js";
export * as policyV1 from "./gen/verdict/policy/v1/policy.js";
export * as evaluationV1 from "./gen/verdict/evaluation/v1/evaluation.js";
export * as complianceV1 from "./gen/verdict/compliance/v1/compliance.js";
export * as webhooksV1 from "./gen/verdict/webhooks/v1/webhooks.js";
export * as integrationsV1 from "./gen/verdict/integrations/v1/integrations.js";
export * as auditV1 from "./gen/verdict/audit/v1/audit.js";

export const SERVICE_NAMES = {
  identity: "verdict.identity.v1.IdentityService",
  policy: "verdict.policy.v1.PolicyService",
  evaluation: "verdict.evaluation.v1.EvaluationService",
  compliance: "verdict.compliance.v1.ComplianceService",
  webhooks: "verdict.webhooks.v1.WebhookService",
  integrations: "verdict.integrations.v1.IntegrationsService",
} as const;

/**
 * The proto sources: a copy inside the package (`proto/` beside `dist/`, which the container
 * image's build puts there before `pnpm deploy`), else the repository's proto/ folder.
 */
const packagedProtos = fileURLToPath(new URL("../proto", import.meta.url));
export const protoRoot = existsSync(packagedProtos)
  ? packagedProtos
  : fileURLToPath(new URL("../../../proto", import.meta.url));

const FILES = {
  identity: "verdict/identity/v1/identity.proto",
  policy: "verdict/policy/v1/policy.proto",
  evaluation: "verdict/evaluation/v1/evaluation.proto",
  compliance: "verdict/compliance/v1/compliance.proto",
  webhooks: "verdict/webhooks/v1/webhooks.proto",
  integrations: "verdict/integrations/v1/integrations.proto",
} as const;

/** proto-loader definition of one service's contract, for gRPC server reflection. */
export function reflectionDefinition(service: keyof typeof FILES): PackageDefinition {
  return loadSync(FILES[service], {
    includeDirs: [protoRoot],
    keepCase: true,
    longs: String,
    enums: String,
    defaults: true,
    oneofs: true,
  });
}
