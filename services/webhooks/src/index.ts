export { startWebhookService, DEFAULT_TIMEOUT_MS, type WebhookService, type WebhookServiceOptions } from "./main.js";
export { DEFAULT_RETRY_SCHEDULE, parseRetrySchedule } from "./domain/schedule.js";
export { SUBSCRIBABLE_EVENTS } from "./domain/events.js";
export { HttpSender, systemResolver, type Resolver, type Sender } from "./egress.js";
export { webhookConfig, webhookOptions, webhookProcessConfig, type WebhookConfig } from "./config.js";
