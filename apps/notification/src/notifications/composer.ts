import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { isEmail, isURL } from 'class-validator';
import type { TenantContext } from '@platform/db';
import { ChannelsService } from '../channels/channels.service.js';
import type { ChannelKind } from '../channels/dto/channel.request.dto.js';
import { render, type Content } from '../delivery/render.js';
import { BUILT_IN_TEMPLATES, TemplateError, renderTemplate } from '../delivery/templates.js';
import { NotificationErrors } from './notifications.errors.js';
import type { Source } from './notification.record.js';

/** A send, from the HTTP route or the NATS subject. */
export interface SendInput {
  channelId?: string;
  destination?: { kind: Exclude<ChannelKind, 'email'>; to: string };
  to?: string[];
  subject?: string;
  body?: string;
  template?: string;
  variables?: Record<string, unknown>;
  idempotencyKey?: string;
  source: Source;
}

/** A send made ready to store: where it goes and its content, rendered for the kind. */
export interface Composed {
  kind: ChannelKind;
  channelId: string | null;
  url: string | null;
  recipients: string[] | null;
  subject: string | null;
  template: string | null;
  content: Content;
  requestHash: string;
}

/** Checks where a send goes and renders its templates and Markdown; every problem is a 400 naming the field. */
@Injectable()
export class Composer {
  constructor(private readonly channels: ChannelsService) {}

  async compose(ctx: TenantContext, input: SendInput): Promise<Composed> {
    const { kind, channelId, url } = await this.destination(ctx, input);
    if (input.to && kind !== 'email') throw NotificationErrors.invalid('to', 'is for email channels only');
    const bad = input.to?.find((address) => !isEmail(address));
    if (bad) throw NotificationErrors.invalid('to', `${bad} is not an email address`);

    const template = input.template === undefined ? undefined : BUILT_IN_TEMPLATES[input.template];
    if (input.template !== undefined && !template) throw NotificationErrors.invalid('template', `must be one of ${Object.keys(BUILT_IN_TEMPLATES).join(', ')}`);
    const bodySource = input.body ?? template?.body;
    if (!bodySource) throw NotificationErrors.invalid('body', 'is required unless template is given');
    const variables = input.variables ?? {};
    const subjectSource = input.subject ?? template?.subject;
    const subject = subjectSource === undefined ? null : this.apply('subject', subjectSource, variables, 'plain').replace(/[\r\n]+/g, ' ');
    const body = this.apply('body', bodySource, variables, 'markdown');
    return {
      kind,
      channelId,
      url,
      recipients: input.to ?? null,
      subject,
      template: input.template ?? null,
      content: render(kind, subject, body),
      requestHash: requestHash(input),
    };
  }

  private async destination(ctx: TenantContext, input: SendInput): Promise<{ kind: ChannelKind; channelId: string | null; url: string | null }> {
    if (input.channelId && input.destination) throw NotificationErrors.invalid('destination', 'give channel_id or destination, not both');
    if (input.destination) {
      if (!isURL(input.destination.to, { protocols: ['https', 'http'], require_protocol: true, require_tld: false }))
        throw NotificationErrors.invalid('destination.to', 'must be an http(s) URL');
      return { kind: input.destination.kind, channelId: null, url: input.destination.to };
    }
    if (!input.channelId) throw NotificationErrors.invalid('channel_id', 'give channel_id or destination');
    try {
      const channel = await this.channels.open(ctx, input.channelId);
      return { kind: channel.kind, channelId: channel.id, url: null };
    } catch (error) {
      // An unknown (or another tenant's) channel is a bad reference in the body, not a missing route.
      if ((error as { status?: number }).status === 404) throw NotificationErrors.invalid('channel_id', 'no channel with this id');
      throw error;
    }
  }

  private apply(field: string, template: string, variables: Record<string, unknown>, as: 'markdown' | 'plain'): string {
    try {
      return renderTemplate(template, variables, as);
    } catch (error) {
      if (error instanceof TemplateError) throw NotificationErrors.invalid(field, `template error: ${error.message}`);
      throw error;
    }
  }
}

/** The request as the idempotency check compares it (source and key excluded). */
function requestHash(input: SendInput): string {
  const { idempotencyKey: _key, source: _source, ...rest } = input;
  return createHash('sha256').update(stableJson(rest)).digest('base64url');
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.keys(value)
      .sort()
      .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
      .map((k) => `${JSON.stringify(k)}:${stableJson((value as Record<string, unknown>)[k])}`)
      .join(',')}}`;
  return JSON.stringify(value);
}
