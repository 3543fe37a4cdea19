export { startIdentityService, type IdentityService, type IdentityServiceOptions } from "./main.js";
export { parseKey, hasScope, SCOPES, EXPIRATIONS, ENVIRONMENTS } from "./domain/apiKey.js";
export { PLANS } from "./domain/organization.js";
export { identityConfig, identityProcessConfig } from "./config.js";
