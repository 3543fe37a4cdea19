// docs/configuration.md, generated from the configuration schemas (`pnpm docs:config` writes it;
// configDoc.test.ts fails when the file is stale): the all-in-one process's variables, then the
// ones only a standalone process reads or whose default differs there.
import type { z } from "zod";
import { complianceProcessConfig } from "@verdict/compliance";
import { evaluationProcessConfig } from "@verdict/evaluation";
import { gatewayProcessConfig } from "@verdict/gateway";
import { identityProcessConfig } from "@verdict/identity";
import { mcpConfig } from "@verdict/mcp";
import { policyProcessConfig } from "@verdict/policy";
import { defaultOf, renderVariableTable } from "@verdict/runtime";
import { webhookProcessConfig } from "@verdict/webhooks";
import { configSchema } from "./config.js";

/** The standalone processes of distributed mode (bin.ts of each service), by name. */
export const STANDALONE_PROCESSES: Readonly<Record<string, z.ZodObject>> = {
  gateway: gatewayProcessConfig,
  identity: identityProcessConfig,
  policy: policyProcessConfig,
  evaluation: evaluationProcessConfig,
  compliance: complianceProcessConfig,
  webhooks: webhookProcessConfig,
  mcp: mcpConfig,
};

/** The variables a standalone process reads that all-in-one does not, or with another default. */
function ownVariables(schema: z.ZodObject): string[] {
  return Object.keys(schema.shape).filter((name) => {
    const allInOne = configSchema.shape[name as keyof typeof configSchema.shape] as z.ZodType | undefined;
    return allInOne === undefined || defaultOf(allInOne) !== defaultOf(schema.shape[name] as z.ZodType);
  });
}

export function configurationDoc(): string {
  const standalone = Object.entries(STANDALONE_PROCESSES).flatMap(([name, schema]) => {
    const names = ownVariables(schema);
    return names.length === 0 ? [] : [`### ${name}`, "", renderVariableTable(schema, names), ""];
  });
  return [
    "# Configuration",
    "",
    "<!-- Generated from the configuration schemas (libs/runtime/src/config.ts, services/*/src/config.ts)",
    "     by `pnpm docs:config`; edit the meanings there (documentVariables). -->",
    "",
    "Environment variables, validated at start-up: the process refuses to start (exit code 2) and",
    "names every bad variable.",
    "",
    "## All-in-one",
    "",
    renderVariableTable(configSchema),
    "| `OTEL_EXPORTER_OTLP_ENDPOINT` | unset | Turns on OpenTelemetry tracing (OTLP/HTTP); the other `OTEL_EXPORTER_OTLP_*` variables apply |",
    "",
    "## Standalone processes",
    "",
    "In [distributed mode](distributed.md#distributed-mode) each service runs as its own process and",
    "reads the variables above that concern it; these are the ones only a standalone process reads,",
    "or whose default differs there.",
    "",
    ...standalone,
  ].join("\n");
}
