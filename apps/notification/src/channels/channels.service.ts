import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { decodeCursor, newId, toPage, type Page } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { render } from '../delivery/render.js';
import { Senders } from '../delivery/senders.js';
import { ChannelSecretBox } from './channel-secrets.js';
import { toChannelResponse, type ChannelConfig, type ChannelResponse, type ChannelRow, type ChannelSecrets, type OpenChannel } from './channel.record.js';
import { ChannelErrors } from './channels.errors.js';
import { channelsRepository, type ChannelChanges } from './channels.repository.js';
import type { ChannelKind, CreateChannelRequestDto, UpdateChannelRequestDto } from './dto/channel.request.dto.js';
import type { ListChannelsQueryDto } from './dto/channel-query.dto.js';

type Settings = Pick<CreateChannelRequestDto, 'email' | 'slack' | 'teams'>;

/** How long a replica reuses an opened channel: a change made through another replica applies within this. */
const OPEN_CACHE_MS = 5000;
const OPEN_CACHE_MAX = 10_000;

/** Notification channels of a tenant environment (or of one customer): CRUD with sealed credentials, and a test send. */
@Injectable()
export class ChannelsService {
  /** Opened channels by tenant, environment, scope and id: a send and its delivery each read the channel, at every attempt. */
  private readonly opened = new Map<string, { channel: OpenChannel; until: number }>();

  constructor(
    private readonly db: TenantDb,
    private readonly box: ChannelSecretBox,
    private readonly senders: Senders,
  ) {}

  async create(p: Principal, dto: CreateChannelRequestDto): Promise<ChannelResponse> {
    const { config, secrets } = splitSettings(dto.kind, dto, {});
    const id = newId();
    const row = await this.db.run(p, (m) =>
      channelsRepository.insert(m, {
        tenantId: p.tenantId,
        environmentId: p.environmentId,
        scopeId: p.scopeId ?? null,
        id,
        name: dto.name,
        kind: dto.kind,
        config,
        sealed: this.box.sealChannel(p.tenantId, p.environmentId, id, secrets),
        enabled: dto.enabled ?? true,
      }),
    );
    return toChannelResponse(row, Object.keys(secrets));
  }

  async list(p: Principal, q: ListChannelsQueryDto): Promise<Page<ChannelResponse>> {
    const after = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.db.run(p, (m) => channelsRepository.list(m, { kind: q.kind, afterId: after?.id ?? null, limit: q.limit }));
    return toPage(
      rows,
      q.limit,
      (r) => this.response(r),
      (r) => ({ id: r.id }),
    );
  }

  async get(p: Principal, id: string): Promise<ChannelResponse> {
    const row = await this.db.run(p, (m) => channelsRepository.get(m, id));
    if (!row) throw ChannelErrors.notFound();
    return this.response(row);
  }

  async update(p: Principal, id: string, dto: UpdateChannelRequestDto): Promise<ChannelResponse> {
    return this.db.run(p, async (m) => {
      const existing = await channelsRepository.get(m, id, true);
      if (!existing) throw ChannelErrors.notFound();
      const changes: ChannelChanges = { name: dto.name, enabled: dto.enabled };
      let secretNames = Object.keys(this.box.openChannel(existing));
      if (dto.email || dto.slack || dto.teams) {
        const kept = this.box.openChannel(existing);
        const { config, secrets } = splitSettings(existing.kind, dto, kept);
        changes.config = config;
        changes.sealed = this.box.sealChannel(existing.tenant_id, existing.environment_id, id, secrets);
        secretNames = Object.keys(secrets);
      }
      const row = await channelsRepository.update(m, id, changes);
      if (!row) throw ChannelErrors.notFound();
      this.forget(id);
      return toChannelResponse(row, secretNames);
    });
  }

  async delete(p: Principal, id: string): Promise<void> {
    const deleted = await this.db.run(p, (m) => channelsRepository.delete(m, id));
    this.forget(id);
    if (!deleted) throw ChannelErrors.notFound();
  }

  /** Sends a short message through the channel now and reports the remote answer; nothing is recorded in the history. */
  async test(
    p: Principal,
    id: string,
    to: string[] | undefined,
  ): Promise<{ ok: boolean; status_code: number | null; error: string | null; duration_ms: number }> {
    const channel = await this.open(p, id);
    const started = Date.now();
    const content = render(channel.kind, 'Test notification', 'This is a **test** of the notification channel.');
    const outcome = await this.senders.send({ kind: channel.kind, channel, recipients: to ?? [] }, content, newId());
    return {
      ok: outcome.outcome === 'delivered',
      status_code: outcome.statusCode,
      error: outcome.outcome === 'delivered' ? null : outcome.error,
      duration_ms: Date.now() - started,
    };
  }

  /** A channel with its credentials, for sending; disabled channels are refused. */
  async open(ctx: TenantContext, id: string): Promise<OpenChannel> {
    const key = `${ctx.tenantId}/${ctx.environmentId}/${ctx.scopeId ?? ''}/${id}`;
    const cached = this.opened.get(key);
    if (cached && cached.until > Date.now()) return cached.channel;
    const row = await this.db.run(ctx, (m) => channelsRepository.get(m, id));
    if (!row) throw ChannelErrors.notFound();
    if (!row.enabled) throw ChannelErrors.disabled();
    const channel: OpenChannel = { id: row.id, kind: row.kind, config: row.config, secrets: this.box.openChannel(row) };
    if (this.opened.size >= OPEN_CACHE_MAX) this.opened.clear();
    this.opened.set(key, { channel, until: Date.now() + OPEN_CACHE_MS });
    return channel;
  }

  private forget(id: string): void {
    for (const key of this.opened.keys()) if (key.endsWith(`/${id}`)) this.opened.delete(key);
  }

  private response(row: ChannelRow): ChannelResponse {
    return toChannelResponse(row, Object.keys(this.box.openChannel(row)));
  }
}

/** The settings of the channel's kind, split into what is stored in the clear and what is sealed; secrets not sent are kept. */
function splitSettings(kind: ChannelKind, dto: Settings, kept: ChannelSecrets): { config: ChannelConfig; secrets: ChannelSecrets } {
  for (const other of ['email', 'slack', 'teams'] as const) {
    if (other !== kind && dto[other] !== undefined) throw ChannelErrors.invalid(other, `must be absent for a ${kind} channel`);
  }
  switch (kind) {
    case 'email': {
      const e = dto.email;
      if (!e) throw ChannelErrors.invalid('email', 'is required for an email channel');
      const secrets: ChannelSecrets = e.password !== undefined ? { password: e.password } : kept.password ? { password: kept.password } : {};
      const config = {
        host: e.host,
        port: e.port,
        security: e.security,
        username: e.username ?? null,
        from: e.from,
        reply_to: e.reply_to ?? null,
        to: e.to ?? [],
        ca: e.ca ?? null,
      };
      return { config, secrets };
    }
    case 'slack': {
      const s = dto.slack;
      if (!s) throw ChannelErrors.invalid('slack', 'is required for a slack channel');
      const webhook = s.webhook_url ?? (s.bot_token ? undefined : kept.webhook_url);
      const token = s.bot_token ?? (s.webhook_url ? undefined : kept.bot_token);
      if (webhook && token) throw ChannelErrors.invalid('slack', 'takes webhook_url or bot_token, not both');
      if (!webhook && !token) throw ChannelErrors.invalid('slack', 'needs webhook_url, or bot_token with channel');
      if (token && !s.channel) throw ChannelErrors.invalid('slack.channel', 'is required with bot_token');
      return webhook
        ? { config: { mode: 'webhook', channel: null }, secrets: { webhook_url: webhook } }
        : { config: { mode: 'bot', channel: s.channel ?? null }, secrets: { bot_token: token } };
    }
    case 'teams': {
      const t = dto.teams;
      if (!t) throw ChannelErrors.invalid('teams', 'is required for a teams channel');
      return { config: {}, secrets: { webhook_url: t.webhook_url } };
    }
  }
}
