import { Inject, Injectable } from '@nestjs/common';
import { createTransport } from 'nodemailer';
import { SecretRedactor } from '@platform/common';
import type { ChannelKind, EmailConfig, OpenChannel, SlackConfig } from './channel-kinds.js';
import { NOTIFICATION_CONFIG, type NotificationConfig } from '../config/notification.config.js';
import { BlockedAddressError, checkHost } from './address-guard.js';
import { postJson } from './http-post.js';
import { classifyHttp, parseRetryAfter, type AttemptOutcome } from './outcome.js';
import type { Content, EmailContent, SlackContent, TeamsContent } from './render.js';

/** Where one notification goes: a channel (with its credentials), or an ad-hoc Slack or Teams URL. */
export interface Destination {
  kind: ChannelKind;
  channel?: OpenChannel;
  url?: string;
  recipients: string[];
}

const TRANSIENT_SMTP = new Set(['ECONNECTION', 'ETIMEDOUT', 'ESOCKET', 'EDNS', 'ECONNRESET', 'EPROTOCOL']);
const TRANSIENT_SLACK = new Set(['ratelimited', 'internal_error', 'fatal_error', 'service_unavailable', 'request_timeout']);

/**
 * One attempt at one destination: SMTP through nodemailer, Slack's incoming webhooks and
 * chat.postMessage, Teams webhooks and Workflows URLs (Adaptive Cards). Every answer is read into
 * an AttemptOutcome; nothing here retries (the delivery worker does, with backoff).
 */
@Injectable()
export class Senders {
  constructor(@Inject(NOTIFICATION_CONFIG) private readonly config: NotificationConfig) {}

  /**
   * The outcome's error is recorded in the history, shown and logged: what the receiver echoes of
   * the destination's secrets (its webhook URL, bot token, SMTP password) is redacted first.
   */
  async send(dest: Destination, content: Content, notificationId: string): Promise<AttemptOutcome> {
    const outcome = await this.attempt(dest, content, notificationId);
    if (outcome.outcome === 'delivered') return outcome;
    const login = (dest.channel?.config as EmailConfig | undefined)?.username;
    // SMTP AUTH PLAIN sends `\0user\0password` base64-encoded; a server may echo that whole.
    const plain = login && dest.channel?.secrets.password ? `\u0000${login}\u0000${dest.channel.secrets.password}` : undefined;
    return { ...outcome, error: SecretRedactor.of(dest.channel?.secrets).with([dest.url, plain]).text(outcome.error) };
  }

  private async attempt(dest: Destination, content: Content, notificationId: string): Promise<AttemptOutcome> {
    try {
      switch (dest.kind) {
        case 'email':
          return await this.email(dest, content as EmailContent, notificationId);
        case 'slack':
          return await this.slack(dest, content as SlackContent, notificationId);
        case 'teams':
          return await this.post(this.url(dest), (content as TeamsContent).card, notificationId);
      }
    } catch (error) {
      if (error instanceof BlockedAddressError) return { outcome: 'permanent', statusCode: null, error: error.message };
      return { outcome: 'transient', statusCode: null, error: `network error: ${(error as Error).message}`.slice(0, 500) };
    }
  }

  private url(dest: Destination): string {
    const url = dest.url ?? dest.channel?.secrets.webhook_url;
    if (!url) throw new BlockedAddressError('the channel has no URL');
    return url;
  }

  private async slack(dest: Destination, content: SlackContent, notificationId: string): Promise<AttemptOutcome> {
    const config = dest.channel?.config as SlackConfig | undefined;
    if (config?.mode !== 'bot') return this.post(this.url(dest), content, notificationId);
    const api = new URL(`${this.config.NOTIFICATION_SLACK_API_URL.replace(/\/$/, '')}/chat.postMessage`);
    const res = await postJson(
      api,
      { channel: config.channel, ...content },
      { authorization: `Bearer ${dest.channel?.secrets.bot_token ?? ''}` },
      this.config.NOTIFICATION_SEND_TIMEOUT_MS,
      this.config.NOTIFICATION_ALLOW_PRIVATE_NETWORKS,
    );
    const text = res.text;
    const retryAfter = header(res.headers['retry-after']);
    if (res.status !== 200) return classifyHttp(res.status, retryAfter, text);
    // The Web API answers 200 with { ok: false, error } for most failures.
    const body = JSON.parse(text || '{}') as { ok?: boolean; error?: string };
    if (body.ok) return { outcome: 'delivered', statusCode: 200 };
    const error = `Slack: ${body.error ?? 'unknown error'}`;
    if (TRANSIENT_SLACK.has(body.error ?? '')) return { outcome: 'transient', statusCode: 200, error, retryAfterMs: parseRetryAfter(retryAfter) };
    return { outcome: 'permanent', statusCode: 200, error };
  }

  private async post(url: string, payload: unknown, notificationId: string): Promise<AttemptOutcome> {
    // The id lets a receiver that can deduplicate do so (a redelivery after a crash sends it again).
    const res = await postJson(
      new URL(url),
      payload,
      { 'x-notification-id': notificationId },
      this.config.NOTIFICATION_SEND_TIMEOUT_MS,
      this.config.NOTIFICATION_ALLOW_PRIVATE_NETWORKS,
    );
    return classifyHttp(res.status, header(res.headers['retry-after']), res.status >= 300 ? res.text : '');
  }

  private async email(dest: Destination, content: EmailContent, notificationId: string): Promise<AttemptOutcome> {
    const config = dest.channel?.config as EmailConfig | undefined;
    if (!config) return { outcome: 'permanent', statusCode: null, error: 'email needs a channel' };
    const to = dest.recipients.length ? dest.recipients : config.to;
    if (!to.length) return { outcome: 'permanent', statusCode: null, error: 'no recipients' };
    await checkHost(config.host, this.config.NOTIFICATION_ALLOW_PRIVATE_NETWORKS);
    const timeout = this.config.NOTIFICATION_SEND_TIMEOUT_MS;
    const transport = createTransport({
      host: config.host,
      port: config.port,
      secure: config.security === 'tls',
      requireTLS: config.security === 'starttls',
      auth: config.username ? { user: config.username, pass: dest.channel?.secrets.password ?? '' } : undefined,
      tls: { minVersion: 'TLSv1.2', rejectUnauthorized: true, ...(config.ca ? { ca: [config.ca] } : {}) },
      connectionTimeout: timeout,
      greetingTimeout: timeout,
      socketTimeout: timeout,
    });
    try {
      const info = await transport.sendMail({
        from: config.from,
        replyTo: config.reply_to ?? undefined,
        to,
        subject: content.subject,
        text: content.text,
        html: content.html,
        messageId: `<${notificationId}@notifications.platform>`,
        headers: { 'X-Notification-Id': notificationId },
      });
      if (info.rejected.length) return { outcome: 'permanent', statusCode: 550, error: `rejected recipients: ${info.rejected.map(String).join(', ')}` };
      return { outcome: 'delivered', statusCode: Number(/^\d{3}/.exec(info.response)?.[0] ?? 250) };
    } catch (error) {
      return classifySmtp(error as Error & { code?: string; responseCode?: number });
    } finally {
      transport.close();
    }
  }
}

const header = (value: string | string[] | undefined): string | null => (Array.isArray(value) ? (value[0] ?? null) : (value ?? null));

/** SMTP 4xx and connection trouble are retried; 5xx (rejected recipients, refused sender, bad login) and TLS failures are final. */
function classifySmtp(error: Error & { code?: string; responseCode?: number }): AttemptOutcome {
  const message = `SMTP: ${error.message}`.slice(0, 500);
  const code = error.responseCode ?? null;
  if (code !== null)
    return code >= 400 && code < 500 ? { outcome: 'transient', statusCode: code, error: message } : { outcome: 'permanent', statusCode: code, error: message };
  if (TRANSIENT_SMTP.has(error.code ?? '')) return { outcome: 'transient', statusCode: null, error: message };
  return { outcome: 'permanent', statusCode: null, error: message };
}
