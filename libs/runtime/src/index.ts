export * from "./config.js";
export * from "./ports.js";
export * from "./process.js";
export * from "./pool.js";
export * from "./configDoc.js";
export * from "./threadPriority.js";
export * from "./service.js";
