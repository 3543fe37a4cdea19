// All-in-one configuration, from environment variables, validated at start-up. It holds no
// variable of its own but the loopback gRPC layout: every other one is declared by the service
// that reads it (services/<name>/src/config.ts) and by libs/runtime (logging, data directory,
// MongoDB and Kafka), and composed here.
import { resolve } from "node:path";
import { z } from "zod";
import { portVar } from "@verdict/kit";
import { complianceConfig } from "@verdict/compliance";
import { evaluationConfig } from "@verdict/evaluation";
import { gatewayConfig } from "@verdict/gateway";
import { identityConfig } from "@verdict/identity";
import { integrationsConfig } from "@verdict/integrations";
import { policyBudgetConfig } from "@verdict/policy";
import { processConfig, readVariables, documentVariables } from "@verdict/runtime";
import { webhookConfig } from "@verdict/webhooks";

export const configSchema = processConfig.extend({
  ...gatewayConfig.shape,
  ...identityConfig.shape,
  ...policyBudgetConfig.shape,
  ...evaluationConfig.shape,
  ...complianceConfig.shape,
  ...webhookConfig.shape,
  ...integrationsConfig.shape,
  /** The services' gRPC ports stay on loopback unless told otherwise. */
  VERDICT_GRPC_HOST: z.string().min(1).default("127.0.0.1"),
  /** 0: each service takes a free loopback port. N: identity N, policy N+1, evaluation N+2, compliance N+3, webhooks N+4, integrations N+5. */
  VERDICT_GRPC_BASE_PORT: portVar(0),
});

export type Config = z.infer<typeof configSchema> & { dataDir: string };

export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const c = readVariables(configSchema, env);
  return { ...c, dataDir: resolve(c.VERDICT_DATA_DIR) };
}

documentVariables({
  VERDICT_GRPC_BASE_PORT:
    "0: free loopback ports; N: identity N, policy N+1, evaluation N+2, compliance N+3, webhooks N+4, integrations N+5",
});
