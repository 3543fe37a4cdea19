export { startIdentityService, type IdentityService, type IdentityServiceOptions } from "./main.js";
export { parseKey, hasScope, SCOPES, EXPIRATIONS, ENVIRONMENTS } from "./domain/apiKey.js";
export { PLANS } from "./domain/organization.js";
export { identityConfig, identityOptions, identityProcessConfig, type IdentityConfig } from "./config.js";
export { ROLES, roleScopes } from "./domain/member.js";
export { AUDIT_TYPES } from "./domain/audit.js";
