export { startMcpService, type McpService, type McpServiceOptions } from "./main.js";
export { createMcpApp } from "./http.js";
export { mcpConfig } from "./config.js";
