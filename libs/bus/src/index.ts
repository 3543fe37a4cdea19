export * from "./port.js";
export { InProcessBus } from "./memory.js";
