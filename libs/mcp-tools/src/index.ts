export { registerVerdictTools, toolError, type ToolOptions } from "./tools.js";
export { createVerdictMcpServer } from "./server.js";
