export * from "./outbox.js";
