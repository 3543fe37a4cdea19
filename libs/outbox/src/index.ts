export * from "./outbox.js";
export * from "./auditChange.js";
