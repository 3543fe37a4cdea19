#!/usr/bin/env node
// The policy service as its own process (distributed mode).
import { runGrpcService } from "@verdict/runtime";
import { policyBudgets, policyProcessConfig } from "./config.js";
import { startPolicyService } from "./main.js";

runGrpcService("policy", policyProcessConfig, (base, { config }) =>
  startPolicyService({ ...base, budgets: policyBudgets(config) }),
);
