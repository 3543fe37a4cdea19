export * from "./port.js";
export { InProcessBus } from "./memory.js";
export { PortBus, serveBus } from "./port.bridge.js";
export { KafkaBus, type KafkaBusOptions, type KafkaSasl } from "./kafka.js";
export { createBus, type BusConfig } from "./factory.js";
export type * from "./payloads.js";
