export * from "./domain/provider.js";
export { startIntegrationsService, type IntegrationsService, type IntegrationsServiceOptions } from "./main.js";
export {
  integrationsConfig,
  integrationsOptions,
  integrationsProcessConfig,
  type IntegrationsConfig,
} from "./config.js";
export { GiteaClient, type GiteaClientOptions } from "./providers/gitea/client.js";
export { GiteaInbound } from "./providers/gitea/inbound.js";
