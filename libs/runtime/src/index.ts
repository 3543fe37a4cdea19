export * from "./process.js";
export * from "./namespace.js";
