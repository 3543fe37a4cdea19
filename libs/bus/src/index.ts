export * from "./port.js";
export { InProcessBus } from "./memory.js";
export { PortBus, serveBus } from "./port.bridge.js";
