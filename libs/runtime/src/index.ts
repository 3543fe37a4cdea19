export * from "./process.js";
export * from "./pool.js";
