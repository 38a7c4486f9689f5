import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { decodeCursor, newId, type Page, toPage } from '@platform/common';
import { type PageQueryDto } from '@platform/service';
import { TenantDb, type TenantContext } from '@platform/db';
import type { ResolveSecretsResponse } from '@platform/messaging';
import type { EntityManager } from 'typeorm';
import { DataKeysService } from './data-keys.service.js';
import { open, seal, secretAad } from './secret-cipher.js';
import { CIPHER_VERSION, MAX_SECRET_BYTES, toSecretResponse, type SecretResponse } from './secret.record.js';
import { SecretErrors } from './secrets.errors.js';
import { secretsRepository, type AccessEntry } from './secrets.repository.js';
import type { CreateSecretRequestDto } from './dto/create-secret.request.dto.js';
import type { ReplaceSecretRequestDto } from './dto/replace-secret.request.dto.js';

export interface ReadContext extends TenantContext {
  purpose: string;
  actor: string | null;
  requestId: string | null;
}

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/**
 * Secrets of a tenant environment. Values go in through create/replace and out only through
 * `resolve` (NATS, for the run and connection services); no HTTP answer, log line or error
 * carries one.
 */
@Injectable()
export class SecretsService {
  constructor(
    private readonly db: TenantDb,
    private readonly keys: DataKeysService,
  ) {}

  async create(principal: Principal, dto: CreateSecretRequestDto): Promise<SecretResponse> {
    const ctx = this.tenantWide(principal);
    const plaintext = this.plaintext(dto.value);
    try {
      return await this.db.run(ctx, async (m) => {
        const key = await this.keys.forWriting(m, ctx);
        const row = await secretsRepository.insert(m, {
          tenantId: ctx.tenantId,
          environmentId: ctx.environmentId,
          id: newId(),
          name: dto.name,
          description: dto.description ?? null,
          dataKeyId: key.id,
          cipherVersion: CIPHER_VERSION,
          sealed: seal(key.key, plaintext, secretAad(ctx.tenantId, ctx.environmentId, dto.name)),
          createdBy: `${principal.kind}:${principal.subject}`,
        });
        await secretsRepository.log(m, [this.entry(ctx, row.id, row.name, 'create', principal)]);
        return toSecretResponse(row);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw SecretErrors.duplicate(dto.name);
      throw error;
    } finally {
      plaintext.fill(0);
    }
  }

  async list(principal: Principal, query: PageQueryDto): Promise<Page<SecretResponse>> {
    const ctx = this.tenantWide(principal);
    const after = decodeCursor(query.cursor, { name: 'text' });
    const rows = await this.db.run(ctx, (m) => secretsRepository.list(m, after?.name ?? null, query.limit));
    return toPage(rows, query.limit, toSecretResponse, (r) => ({ name: r.name }));
  }

  async get(principal: Principal, name: string): Promise<SecretResponse> {
    const row = await this.db.run(this.tenantWide(principal), (m) => secretsRepository.get(m, name));
    if (!row) throw SecretErrors.notFound();
    return toSecretResponse(row);
  }

  async replace(principal: Principal, name: string, dto: ReplaceSecretRequestDto): Promise<SecretResponse> {
    const ctx = this.tenantWide(principal);
    const plaintext = this.plaintext(dto.value);
    try {
      return await this.db.run(ctx, async (m) => {
        const existing = await secretsRepository.get(m, name, true);
        if (!existing) throw SecretErrors.notFound();
        const key = await this.keys.forWriting(m, ctx);
        const sealed = seal(key.key, plaintext, secretAad(ctx.tenantId, ctx.environmentId, name));
        const row = await secretsRepository.replace(m, name, key.id, CIPHER_VERSION, sealed, dto.description);
        if (!row) throw SecretErrors.notFound();
        await secretsRepository.log(m, [this.entry(ctx, row.id, name, 'replace', principal)]);
        return toSecretResponse(row);
      });
    } finally {
      plaintext.fill(0);
    }
  }

  async delete(principal: Principal, name: string): Promise<void> {
    const ctx = this.tenantWide(principal);
    await this.db.run(ctx, async (m) => {
      const deleted = await secretsRepository.delete(m, name);
      if (!deleted) throw SecretErrors.notFound();
      await secretsRepository.log(m, [this.entry(ctx, deleted.id, name, 'delete', principal)]);
    });
  }

  /**
   * Values for a workflow run or a connection. Secrets are tenant configuration, so a run started
   * for a customer reads the tenant's secrets (the scope is not applied). Every value read is
   * recorded with its purpose, and `last_read_at` moves, in the same transaction.
   */
  async resolve(read: ReadContext, names: string[]): Promise<ResolveSecretsResponse> {
    const ctx: TenantContext = { tenantId: read.tenantId, environmentId: read.environmentId, scopeId: null };
    const wanted = [...new Set(names)];
    return this.db.run(ctx, async (m) => {
      const rows = await secretsRepository.sealed(m, wanted);
      const values: Record<string, string> = {};
      const keyCache = new Map<string, Buffer>();
      for (const row of rows) {
        const key = await this.dataKey(m, row.data_key_id, keyCache);
        const plaintext = open(
          key,
          { iv: row.iv, ciphertext: row.ciphertext, tag: row.auth_tag },
          secretAad(ctx.tenantId, ctx.environmentId, row.name),
          'secret',
        );
        values[row.name] = plaintext.toString('utf8');
        plaintext.fill(0);
      }
      await secretsRepository.markRead(
        m,
        rows.map((r) => r.id),
      );
      await secretsRepository.log(
        m,
        rows.map((r) => ({ ...this.entry(ctx, r.id, r.name, 'read'), purpose: read.purpose, actor: read.actor, requestId: read.requestId })),
      );
      for (const key of keyCache.values()) key.fill(0);
      return { values, missing: wanted.filter((n) => !(n in values)) };
    });
  }

  private async dataKey(m: EntityManager, id: string, cache: Map<string, Buffer>): Promise<Buffer> {
    const cached = cache.get(id);
    if (cached) return cached;
    const key = await this.keys.byId(m, id);
    if (!key) throw new Error(`data key ${id} of a secret is missing`);
    cache.set(id, key.key);
    return key.key;
  }

  private plaintext(value: string): Buffer {
    const bytes = Buffer.from(value, 'utf8');
    if (bytes.length < 1 || bytes.length > MAX_SECRET_BYTES) {
      bytes.fill(0);
      throw SecretErrors.valueTooLarge();
    }
    return bytes;
  }

  private tenantWide(principal: Principal): TenantContext {
    if (principal.scopeId) throw SecretErrors.customerScoped();
    return { tenantId: principal.tenantId, environmentId: principal.environmentId, scopeId: null };
  }

  private entry(ctx: TenantContext, secretId: string, name: string, action: AccessEntry['action'], principal?: Principal): AccessEntry {
    return {
      tenantId: ctx.tenantId,
      environmentId: ctx.environmentId,
      id: newId(),
      secretId,
      secretName: name,
      action,
      purpose: `http:${action}`,
      actor: principal ? `${principal.kind}:${principal.subject}` : null,
      requestId: null,
    };
  }
}
