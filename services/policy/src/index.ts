export { startPolicyService, type PolicyService, type PolicyServiceOptions } from "./main.js";
export { BUILTIN_POLICIES, type BuiltinPattern, type BuiltinPolicy } from "./domain/builtins/index.js";
export { LANGUAGES, type Language } from "./domain/builtins/types.js";
export { resolveBuiltins } from "./domain/resolveBuiltins.js";
export { SEVERITIES, type ResolvedPattern, type ResolvedPolicy, type Severity } from "./domain/policy.js";
export { PROVIDERS } from "./domain/repository.js";
export { DEFAULT_BUDGETS, policyBudgetConfig, policyBudgets, policyProcessConfig } from "./config.js";
