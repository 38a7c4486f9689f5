import { Injectable } from '@nestjs/common';
import { isUuid } from '@platform/common';
import { SystemDb, TenantDb, type TenantContext } from '@platform/db';
import { receivingRepository } from './receiving.repository.js';
import type { WebhookRow } from './webhook.record.js';
import { webhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

export type Owner = TenantContext & { scopeId: string | null };

/** An enabled webhook as the receiving route verifies against it, with its secret opened. */
export interface ReceivingWebhook {
  owner: Owner;
  webhook: WebhookRow;
  secret: string | null;
}

const MAX_ENTRIES = 10_000;

/**
 * Enabled webhooks by id, so a delivery costs one round trip (the write). A cached copy may be
 * stale (disabled, secret rotated, deleted on another replica): the write is refused unless the
 * webhook is still enabled at the cached `version`, and the caller then forgets the entry and
 * verifies again against a fresh read. Disabled and unknown webhooks are never cached.
 */
@Injectable()
export class ReceivingCache {
  private readonly entries = new Map<string, ReceivingWebhook>();

  constructor(
    private readonly db: TenantDb,
    private readonly system: SystemDb,
    private readonly webhooks: WebhooksService,
  ) {}

  async get(id: string): Promise<ReceivingWebhook | undefined> {
    if (!isUuid(id)) return undefined;
    return this.entries.get(id) ?? this.load(id);
  }

  forget(id: string): void {
    this.entries.delete(id);
  }

  private async load(id: string): Promise<ReceivingWebhook | undefined> {
    const row = await this.system.run('webhook receiving: find the owner of a webhook id', (m) => webhooksRepository.owner(m, id), 'debug');
    if (!row) return undefined;
    const owner: Owner = { tenantId: row.tenant_id, environmentId: row.environment_id, scopeId: row.scope_id };
    const webhook = await receivingRepository.find(this.db, owner, id);
    if (!webhook?.enabled) return undefined;
    const entry = { owner, webhook, secret: this.webhooks.openSecret(owner, webhook) };
    if (this.entries.size >= MAX_ENTRIES) this.entries.clear();
    this.entries.set(id, entry);
    return entry;
  }
}
