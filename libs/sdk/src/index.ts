export * from "./client.js";
export * from "./errors.js";
export * from "./gen/scopes.js";
export * from "./rateLimit.js";
export * from "./retry.js";
export type * from "./types.js";
export * from "./auditChain.js";
