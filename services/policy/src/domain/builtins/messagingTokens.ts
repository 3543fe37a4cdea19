import { builtinSettings, docs, SECRET_FRAMEWORKS, TOKEN_END, type BuiltinPolicy } from "./types.js";
import { SECRETS_CATEGORY } from "../policy.js";

export const messagingTokens: BuiltinPolicy = {
  id: "messaging-tokens",
  name: "Chat and messaging tokens",
  description: "Detects Slack tokens and incoming webhooks, Discord bot tokens and webhooks, Telegram bot tokens and Microsoft Teams incoming webhooks.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    {
      id: "slack-bot-token",
      type: "regex",
      // Current bot tokens (team id, bot id, secret) and legacy ones (team id, secret).
      value: String.raw`\bxoxb-[0-9]{8,14}-(?:[0-9]{10,13}-[A-Za-z0-9]{24,34}|[A-Za-z0-9]{18,26})\b`,
      message: "Slack bot token found in source code",
      keywords: ["xoxb-"],
    },
    {
      id: "slack-user-token",
      type: "regex",
      value: String.raw`\bxox[pe](?:-[0-9]{10,13}){3}-[A-Za-z0-9]{28,34}\b`,
      message: "Slack user token found in source code",
      keywords: ["xoxp-", "xoxe-"],
    },
    {
      id: "slack-app-token",
      type: "regex",
      value: String.raw`\bxapp-[0-9]-[A-Z0-9]{9,12}-[0-9]{10,14}-[a-z0-9]{32,80}\b`,
      message: "Slack app-level token found in source code",
      keywords: ["xapp-"],
    },
    {
      id: "slack-legacy-token",
      type: "regex",
      value: String.raw`\b(?:xox[os]-[0-9]+-[0-9]+-[0-9]+-[a-fA-F0-9]+|xox[ar]-(?:[0-9]-)?[0-9a-zA-Z]{8,48})\b`,
      message: "Slack legacy, workspace or refresh token found in source code",
      keywords: ["xoxa-", "xoxo-", "xoxr-", "xoxs-"],
    },
    {
      id: "slack-webhook-url",
      type: "regex",
      value: String.raw`https?://hooks\.slack\.com/(?:services|workflows|triggers)/(T[A-Z0-9]{8,12}/[A-Za-z0-9/]{20,})`,
      message: "Slack incoming webhook URL found in source code",
      redact_group: 1,
      keywords: ["hooks.slack.com"],
    },
    {
      id: "discord-bot-token",
      type: "regex",
      value: String.raw`\b([MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38})${TOKEN_END}`,
      message: "Discord bot token found in source code",
      redact_group: 1,
      keywords: ["discord"],
    },
    {
      id: "discord-webhook-url",
      type: "regex",
      value: String.raw`https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/([A-Za-z0-9_-]{60,68})`,
      message: "Discord webhook URL found in source code",
      redact_group: 1,
      keywords: ["discord"],
    },
    {
      id: "telegram-bot-token",
      type: "regex",
      // `123456789:AA…`, alone or in an API URL (`/bot123456789:AA…/sendMessage`).
      value: String.raw`(?:\bbot|\b)([0-9]{8,10}:[A-Za-z0-9_-]{35})${TOKEN_END}`,
      message: "Telegram bot token found in source code",
      redact_group: 1,
      keywords: ["telegram", "bot"],
    },
    {
      id: "teams-webhook-url",
      type: "regex",
      value: String.raw`https://[a-z0-9-]+\.webhook\.office\.com/webhookb2/[a-f0-9-]{36}@[a-f0-9-]{36}/IncomingWebhook/([A-Za-z0-9]{32})/[a-f0-9-]{36}`,
      message: "Microsoft Teams incoming webhook URL found in source code",
      redact_group: 1,
      keywords: ["webhook.office.com"],
    },
  ],
  suggestions: [
    "Revoke the token or delete the webhook in the workspace's app settings now, create a new one, and give it to the application from a secrets manager or a CI secret.",
  ],
  documentation_url: docs("messaging-tokens"),
  settings: builtinSettings(),
};
