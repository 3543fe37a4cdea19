#!/usr/bin/env node
// The webhooks service as its own process (distributed mode): consumes evaluation events,
// delivers signed messages, retries on its schedule.
import { runProcess } from "@verdict/runtime";
import { webhookOptions, webhookProcessConfig } from "./config.js";
import { startWebhookService } from "./main.js";

runProcess("webhooks", webhookProcessConfig, async ({ config, logger, store, bus }) => {
  const opened = await store();
  const service = await startWebhookService({
    store: opened,
    bus,
    logger,
    host: config.VERDICT_GRPC_HOST,
    port: config.VERDICT_GRPC_PORT,
    ...webhookOptions(config, config.VERDICT_DATA_DIR, logger),
  });
  return { ready: { grpc_port: service.grpc.port }, stop: () => service.stop() };
});
