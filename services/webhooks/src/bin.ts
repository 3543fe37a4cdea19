#!/usr/bin/env node
// The webhooks service as its own process (distributed mode): consumes evaluation events,
// delivers signed messages, retries on its schedule.
import { runGrpcService } from "@verdict/runtime";
import { webhookOptions, webhookProcessConfig } from "./config.js";
import { startWebhookService } from "./main.js";

runGrpcService("webhooks", webhookProcessConfig, (base, { config, logger }) =>
  startWebhookService({ ...base, ...webhookOptions(config, config.VERDICT_DATA_DIR, logger) }),
);
