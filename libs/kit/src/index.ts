export * from "./errors.js";
export * from "./ids.js";
export * from "./clock.js";
export * from "./config.js";
export * from "./logger.js";
export * from "./metrics.js";
export * from "./telemetry.js";
export * from "./grpc.js";
