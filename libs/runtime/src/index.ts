export * from "./process.js";
