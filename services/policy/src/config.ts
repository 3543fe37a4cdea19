// The custom-pattern budgets, from environment variables (the standalone process and the
// all-in-one read the same ones; docs/configuration.md).
import { z } from "zod";
import { DEFAULT_GRPC_PORTS, grpcServiceConfig, positiveInt, documentVariables } from "@verdict/runtime";
import type { PolicyBudgets } from "./deps.js";
import { DEFAULT_PATTERN_BUDGET } from "./domain/patternBudget.js";

export const DEFAULT_BUDGETS: PolicyBudgets = {
  pattern: DEFAULT_PATTERN_BUDGET,
  checkTimeoutMs: 2_000,
  maxPatternsPerOrganization: 500,
};

export const policyBudgetConfig = z.object({
  VERDICT_PATTERN_MAX_COMPILE_MS: positiveInt(DEFAULT_PATTERN_BUDGET.maxCompileMs),
  VERDICT_PATTERN_MAX_PROGRAM_BYTES: positiveInt(DEFAULT_PATTERN_BUDGET.maxProgramBytes),
  VERDICT_PATTERN_MAX_SCAN_MS_PER_MIB: positiveInt(DEFAULT_PATTERN_BUDGET.maxScanMsPerMiB),
  VERDICT_PATTERN_MAX_STRUCTURAL_MS_PER_MIB: positiveInt(DEFAULT_PATTERN_BUDGET.maxStructuralMsPerMiB),
  VERDICT_PATTERN_CHECK_TIMEOUT_MS: positiveInt(DEFAULT_BUDGETS.checkTimeoutMs),
  VERDICT_MAX_PATTERNS_PER_ORG: positiveInt(DEFAULT_BUDGETS.maxPatternsPerOrganization),
});

export function policyBudgets(c: z.infer<typeof policyBudgetConfig>): PolicyBudgets {
  return {
    pattern: {
      maxCompileMs: c.VERDICT_PATTERN_MAX_COMPILE_MS,
      maxProgramBytes: c.VERDICT_PATTERN_MAX_PROGRAM_BYTES,
      maxScanMsPerMiB: c.VERDICT_PATTERN_MAX_SCAN_MS_PER_MIB,
      maxStructuralMsPerMiB: c.VERDICT_PATTERN_MAX_STRUCTURAL_MS_PER_MIB,
    },
    checkTimeoutMs: c.VERDICT_PATTERN_CHECK_TIMEOUT_MS,
    maxPatternsPerOrganization: c.VERDICT_MAX_PATTERNS_PER_ORG,
  };
}

/** The policy service as its own process (bin.ts). */
export const policyProcessConfig = grpcServiceConfig(DEFAULT_GRPC_PORTS.policy).extend(policyBudgetConfig.shape);

documentVariables({
  VERDICT_PATTERN_MAX_COMPILE_MS: "A custom pattern whose compile takes longer is refused (422 on `patterns[i].value`)",
  VERDICT_PATTERN_MAX_PROGRAM_BYTES:
    "A custom pattern whose compiled program does not fit a one-pattern `RE2.Set` of this memory budget is refused",
  VERDICT_PATTERN_MAX_SCAN_MS_PER_MIB:
    "A custom pattern whose scan of the 64 KiB probe text costs more than this per MiB is refused",
  VERDICT_PATTERN_MAX_STRUCTURAL_MS_PER_MIB:
    "A custom structural rule whose matching on 64 KiB of ordinary code of its language costs more than this per MiB is refused (422 on `patterns[i].rule`)",
  VERDICT_PATTERN_CHECK_TIMEOUT_MS: "A custom pattern whose whole check (on a worker thread) takes longer is refused",
  VERDICT_MAX_PATTERNS_PER_ORG: "Patterns of all an organization's custom policies together",
});
