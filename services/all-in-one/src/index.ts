export { launch, type RunningVerdict, type LaunchOptions } from "./launcher.js";
export { readConfig, configSchema, type Config } from "./config.js";
