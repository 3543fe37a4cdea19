export { startPolicyService, type PolicyService, type PolicyServiceOptions } from "./main.js";
export { BUILTIN_POLICIES } from "./domain/builtins.js";
export { SEVERITIES, type Severity } from "./domain/policy.js";
export { PROVIDERS } from "./domain/repository.js";
