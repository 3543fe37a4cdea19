export * from "./port.js";
export { SqliteStore } from "./sqlite.js";
