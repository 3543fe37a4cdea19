#!/usr/bin/env node
// The webhooks service as its own process (distributed mode): consumes evaluation events,
// delivers signed messages, retries on its schedule.
import { DEFAULT_GRPC_PORTS, grpcServiceConfig, runProcess } from "@verdict/runtime";
import { webhookConfig } from "./config.js";
import { startWebhookService } from "./main.js";
import { resolveMasterKey } from "./masterKey.js";

const schema = grpcServiceConfig(DEFAULT_GRPC_PORTS.webhooks).extend(webhookConfig.shape);

runProcess("webhooks", schema, async ({ config, logger, store, bus }) => {
  const opened = await store();
  const service = await startWebhookService({
    store: opened,
    bus,
    logger,
    host: config.VERDICT_GRPC_HOST,
    port: config.VERDICT_GRPC_PORT,
    // Every replica needs the same key: set VERDICT_WEBHOOK_MASTER_KEY when they do not share a data directory.
    masterKey: resolveMasterKey(config.VERDICT_WEBHOOK_MASTER_KEY, config.VERDICT_DATA_DIR, logger),
    ...(config.VERDICT_WEBHOOK_RETRY_SCHEDULE ? { retrySchedule: config.VERDICT_WEBHOOK_RETRY_SCHEDULE } : {}),
    timeoutMs: config.VERDICT_WEBHOOK_TIMEOUT_MS,
    concurrency: config.VERDICT_WEBHOOK_CONCURRENCY,
    orgConcurrency: config.VERDICT_WEBHOOK_ORG_CONCURRENCY,
    maxPerOrg: config.VERDICT_WEBHOOK_MAX_PER_ORG,
    allowHttp: config.VERDICT_WEBHOOK_ALLOW_HTTP,
    allowPrivate: config.VERDICT_WEBHOOK_ALLOW_PRIVATE,
    ...(config.VERDICT_WEBHOOK_ALLOWED_HOSTS ? { allowedHosts: config.VERDICT_WEBHOOK_ALLOWED_HOSTS } : {}),
  });
  return { ready: { grpc_port: service.grpc.port }, stop: () => service.stop() };
});
