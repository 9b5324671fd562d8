/**
 * Chat platforms: Slack tokens and webhooks, Discord bot tokens and webhooks, Telegram bot tokens
 * (Mem0's `bot\d+:AA` prefix, made exact).
 *
 * @module
 */

import type { SecretRule } from "../types.js";
import { END, pattern, prefixedRule, START } from "./shape.js";

/** The first part of a Discord bot token is the bot's numeric user id (a snowflake) in base64. */
function isBase64Snowflake(part: string): boolean {
  return /^\d{17,20}$/.test(Buffer.from(part, "base64url").toString("latin1"));
}

export const CHAT_RULES: readonly SecretRule[] = [
  prefixedRule({
    id: "slack-bot-token",
    kind: "slack-bot-token",
    reason:
      "Slack bot tokens: `xoxb-`, two or three numeric ids of 10–13 digits, then 24–34 base62 characters.",
    prefixes: ["xoxb-"],
    body: "[0-9]{10,13}-[0-9]{10,13}(?:-[0-9]{10,13})?-[A-Za-z0-9]{24,34}",
  }),
  prefixedRule({
    id: "slack-user-token",
    kind: "slack-user-token",
    reason: "Slack user tokens: `xoxp-`, three numeric ids of 10–13 digits, then 28–34 base62 characters.",
    prefixes: ["xoxp-"],
    body: "[0-9]{10,13}-[0-9]{10,13}-[0-9]{10,13}-[A-Za-z0-9]{28,34}",
  }),
  prefixedRule({
    id: "slack-app-token",
    kind: "slack-app-token",
    reason:
      "Slack app-level tokens: `xapp-`, a version digit, an app id, a numeric id and 64 lower-case hex characters.",
    prefixes: ["xapp-"],
    body: "[0-9]-[A-Z0-9]{9,12}-[0-9]{10,13}-[a-f0-9]{64}",
  }),
  {
    id: "slack-webhook-url",
    kind: "slack-webhook-url",
    reason:
      "Incoming-webhook URLs are bearer credentials by themselves: `hooks.slack.com/services/T<team>/B<hook>/<24 base62>` (and the `workflows`/`triggers` variants). The whole URL is the secret.",
    confidence: "high",
    keywords: ["hooks.slack.com"],
    pattern: pattern(
      String.raw`(?<value>https?://hooks\.slack\.com/(?:services|workflows|triggers)/T[A-Z0-9]{6,12}/[A-Z][A-Z0-9]{6,12}/(?:[0-9]+/)?[A-Za-z0-9]{20,40})${END}`,
    ),
  },
  {
    id: "discord-bot-token",
    kind: "discord-bot-token",
    reason:
      "Discord bot tokens are `<base64 bot id>.<6 chars>.<27–38 chars>`; the first part must decode to a 17–20 digit snowflake, which is what separates them from any dotted base64. No literal prefix, so the rule always runs (its leading `[MNO]` keeps that cheap: a base64 digit string always starts with one).",
    confidence: "high",
    keywords: [],
    pattern: pattern(
      `${START}(?<value>(?<id>[MNO][A-Za-z0-9_\\-]{23,27})\\.[A-Za-z0-9_\\-]{6}\\.[A-Za-z0-9_\\-]{27,38})${END}`,
    ),
    assess: ({ groups }) => (isBase64Snowflake(groups.id ?? "") ? "high" : null),
  },
  {
    id: "discord-webhook-url",
    kind: "discord-webhook-url",
    reason:
      "Discord webhook URLs carry their own token: `discord.com/api/webhooks/<17–20 digit id>/<60–68 base64url>`.",
    confidence: "high",
    keywords: ["discord"],
    pattern: pattern(
      String.raw`(?<value>https://(?:(?:ptb|canary)\.)?discord(?:app)?\.com/api/webhooks/[0-9]{17,20}/[A-Za-z0-9_\-]{60,68})${END}`,
    ),
  },
  {
    id: "telegram-bot-token",
    kind: "telegram-bot-token",
    reason:
      "Telegram bot tokens are `<8–10 digit bot id>:AA<33 base64url>` — Mem0's `bot\\d+:AA` prompt prefix, with the exact lengths that make it a token rather than a ratio or a time.",
    confidence: "high",
    keywords: [":aa"],
    pattern: pattern(String.raw`(?<![A-Za-z0-9])(?<value>[0-9]{8,10}:AA[A-Za-z0-9_\-]{33})${END}`),
  },
];
