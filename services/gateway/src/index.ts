export { startGateway, type Gateway } from "./main.js";
export type { GatewayOptions, TrustProxy } from "./options.js";
export { SPEC_DEFAULTS, type LimitDefaults } from "./http/rateLimit.js";
export {
  gatewayConfig,
  gatewayHttpConfig,
  gatewayOptions,
  gatewayProcessConfig,
  trustProxyVar,
  type GatewayConfig,
  type GatewayHttpConfig,
} from "./http/config.js";
export { routes } from "./routes/index.js";
export { buildOpenApi } from "./http/openapi.js";
export { startGatewayThread, type GatewayThread, type GatewayThreadOptions } from "./thread.js";
