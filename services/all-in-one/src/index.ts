export { launch, type RunningVerdict } from "./launcher.js";
export { readConfig, configSchema, type Config } from "./config.js";
