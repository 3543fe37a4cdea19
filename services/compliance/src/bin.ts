#!/usr/bin/env node
// The compliance service as its own process (distributed mode): coverage, the evidence
// projection fed by evaluation events, and report generation from report.requested.
import { HTTP_PORT, runGrpcService } from "@verdict/runtime";
import { complianceOptions, complianceProcessConfig } from "./config.js";
import { startComplianceService } from "./main.js";

runGrpcService("compliance", complianceProcessConfig, (base, { config }) =>
  startComplianceService({
    ...base,
    policyAddress: config.VERDICT_POLICY_ADDRESS,
    identityAddress: config.VERDICT_IDENTITY_ADDRESS,
    ...complianceOptions(config, config.VERDICT_DATA_DIR, () => `http://localhost:${HTTP_PORT}`),
  }),
);
