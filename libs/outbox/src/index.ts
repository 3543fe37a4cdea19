export * from "./outbox.js";
export * from "./auditChange.js";
export * from "./repository.js";
