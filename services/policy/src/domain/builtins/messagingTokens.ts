import { formatToken, namedSecret } from "./tokenRules.js";
import { type BuiltinPolicy, builtinSettings, docs, SECRET_CLAIMS, SECRET_FRAMEWORKS, TOKEN_END } from "./types.js";
import { OTHER_OBJECT_ID, UUID } from "./identifiers.js";
import { SECRETS_CATEGORY } from "../policy.js";

export const messagingTokens: BuiltinPolicy = {
  id: "messaging-tokens",
  name: "Chat and messaging tokens",
  description:
    "Detects Slack tokens (bot, user, app, configuration, legacy) and incoming webhooks, Discord bot tokens, client secrets and webhooks, Telegram bot tokens, Microsoft Teams incoming webhooks, and Mattermost, Gitter, MessageBird, Sendbird and Intercom tokens.",
  severity: "error",
  enabled: true,
  category: SECRETS_CATEGORY,
  frameworks: [...SECRET_FRAMEWORKS],
  patterns: [
    // Current bot tokens (team id, bot id, secret) and legacy ones (team id, secret).
    formatToken(
      "slack-bot-token",
      "Slack bot token found in source code",
      "xoxb-[0-9]{8,14}-(?:[0-9]{10,13}-[A-Za-z0-9]{24,34}|[A-Za-z0-9]{18,26})",
      ["xoxb-"],
    ),
    formatToken(
      "slack-user-token",
      "Slack user token found in source code",
      "xox[pe](?:-[0-9]{10,13}){3}-[A-Za-z0-9]{28,34}",
      ["xoxp-", "xoxe-"],
    ),
    formatToken(
      "slack-app-token",
      "Slack app-level token found in source code",
      "xapp-[0-9]-[A-Z0-9]{9,12}-[0-9]{10,14}-[a-z0-9]{32,80}",
      ["xapp-"],
    ),
    {
      id: "slack-legacy-token",
      type: "regex",
      value: String.raw`\b(?:xox[os]-[0-9]+-[0-9]+-[0-9]+-[a-fA-F0-9]+|xox[ar]-(?:[0-9]-)?[0-9a-zA-Z]{8,48})\b`,
      message: "Slack legacy, workspace or refresh token found in source code",
      keywords: ["xoxa-", "xoxo-", "xoxr-", "xoxs-"],
    },
    formatToken(
      "slack-config-access-token",
      "Slack app configuration access token found in source code",
      String.raw`xoxe\.xox[bp]-[0-9]-[A-Za-z0-9]{163,166}`,
      ["xoxe.xoxb-", "xoxe.xoxp-"],
    ),
    formatToken(
      "slack-config-refresh-token",
      "Slack app configuration refresh token found in source code",
      "xoxe-[0-9]-[A-Za-z0-9]{146}",
      ["xoxe-"],
    ),
    {
      id: "slack-webhook-url",
      type: "regex",
      // The classic path is T<team>/B<bot>/<secret>; workflow and trigger URLs carry one long id.
      value: String.raw`\bhooks\.slack\.com/(?:services|workflows|triggers)/(T[A-Z0-9]{8,12}/[A-Za-z0-9/]{20,}|[A-Za-z0-9+/]{43,56})`,
      message: "Slack incoming webhook URL found in source code",
      redact_group: 1,
      keywords: ["hooks.slack.com"],
    },
    // <bot user id in base64>.<timestamp>.<HMAC>; the check decodes the id.
    formatToken(
      "discord-bot-token",
      "Discord bot token found in source code",
      String.raw`[MNO][A-Za-z0-9_-]{23,25}\.[A-Za-z0-9_-]{6}\.[A-Za-z0-9_-]{27,38}`,
      ["discord"],
      { checks: ["discord-user-id"] },
    ),
    {
      id: "discord-webhook-url",
      type: "regex",
      value: String.raw`https://(?:ptb\.|canary\.)?discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/([A-Za-z0-9_-]{60,68})`,
      message: "Discord webhook URL found in source code",
      redact_group: 1,
      keywords: ["discord"],
    },
    namedSecret(
      "discord-client-secret",
      "Discord application client secret found in source code",
      "discord",
      "[A-Za-z0-9=_-]{32}",
      ["discord"],
      { min_entropy: 3 },
    ),
    // 64 hexadecimal characters assigned to a Discord name: an application's API key.
    // The interactions public key is 64 hex characters too, and is meant to be public.
    namedSecret(
      "discord-api-key",
      "Discord API key or token (64 hexadecimal characters) found in source code",
      "discord",
      "[a-f0-9]{64}",
      ["discord"],
      { min_entropy: 3, line_allowlist: [String.raw`(?i)public[_-]?key`] },
    ),
    namedSecret(
      "discord-client-id",
      "Discord application (client) id found next to Discord credentials",
      "discord",
      "[0-9]{17,20}",
      ["discord"],
      { min_entropy: 2.5, match_allowlist: [OTHER_OBJECT_ID] },
    ),
    {
      id: "telegram-bot-token",
      type: "regex",
      // `123456789:AA…`, alone or in an API URL (`/bot123456789:AA…/sendMessage`).
      value: String.raw`(?:\bbot|\b)([0-9]{8,10}:[A-Za-z0-9_-]{35})${TOKEN_END}`,
      message: "Telegram bot token found in source code",
      redact_group: 1,
      keywords: ["telegram", "bot"],
    },
    // Shapes the bare-token rule leaves out (shorter or longer bot ids), where a Telegram name
    // says what the value is.
    namedSecret(
      "telegram-bot-token-assigned",
      "Telegram bot token found in source code",
      "telegr",
      "[0-9]{5,16}:A[A-Za-z0-9_-]{34}",
      ["telegr"],
      { min_entropy: 3.5 },
    ),
    {
      id: "teams-webhook-url",
      type: "regex",
      value: String.raw`https://[a-z0-9-]+\.webhook\.office\.com/webhookb2/[a-z0-9-]{36}@[a-z0-9-]{36}/IncomingWebhook/([A-Za-z0-9]{32})/[a-z0-9-]{36}`,
      message: "Microsoft Teams incoming webhook URL found in source code",
      redact_group: 1,
      keywords: ["webhook.office.com"],
    },
    namedSecret(
      "mattermost-access-token",
      "Mattermost personal access or bot token found in source code",
      "mattermost",
      "[A-Za-z0-9]{26}",
      ["mattermost"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "gitter-access-token",
      "Gitter access token found in source code",
      "gitter",
      "[A-Za-z0-9_-]{40}",
      ["gitter"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "messagebird-api-key",
      "MessageBird (Bird) API access key found in source code",
      "message[_-]?bird",
      "[A-Za-z0-9]{25}",
      ["messagebird", "message_bird", "message-bird"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "messagebird-client-id",
      "MessageBird (Bird) client id found next to MessageBird credentials",
      "message[_-]?bird",
      UUID,
      ["messagebird", "message_bird", "message-bird"],
      { match_allowlist: [OTHER_OBJECT_ID] },
    ),
    namedSecret(
      "sendbird-api-token",
      "Sendbird API token found in source code",
      "sendbird",
      "[a-f0-9]{40}",
      ["sendbird"],
      { min_entropy: 3 },
    ),
    namedSecret(
      "sendbird-application-id",
      "Sendbird application id found next to Sendbird credentials",
      "sendbird",
      UUID,
      ["sendbird"],
      { match_allowlist: [OTHER_OBJECT_ID] },
    ),
    namedSecret(
      "intercom-access-token",
      "Intercom access token found in source code",
      "intercom",
      "[A-Za-z0-9=_-]{60}",
      ["intercom"],
      { min_entropy: 3 },
    ),
  ],
  suggestions: [
    "Revoke the token or delete the webhook in the workspace's app settings now, create a new one, and give it to the application from a secrets manager or a CI secret.",
  ],
  claims: SECRET_CLAIMS,
  documentation_url: docs("messaging-tokens"),
  settings: builtinSettings(),
};
