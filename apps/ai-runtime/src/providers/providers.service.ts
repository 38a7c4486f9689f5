import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { decodeCursor, newId, toPage, type Page } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { ProviderSecretBox } from './provider-secrets.js';
import { toProviderResponse, type ProviderResponse, type ProviderRow } from './provider.record.js';
import { ProviderErrors } from './providers.errors.js';
import { providersRepository, type ProviderChanges } from './providers.repository.js';
import type { CreateProviderRequestDto, UpdateProviderRequestDto } from './dto/provider.request.dto.js';
import type { PageQueryDto } from '@platform/service';

/** A provider with its key opened, for calls. */
export interface OpenProvider {
  row: ProviderRow;
  apiKey: string;
}

const CACHE_MS = 5000;

/** Model providers of a tenant environment: CRUD with the API key sealed, and the opened providers for calls. */
@Injectable()
export class ProvidersService {
  private readonly cache = new Map<string, { providers: Map<string, OpenProvider>; until: number }>();

  constructor(
    private readonly db: TenantDb,
    private readonly box: ProviderSecretBox,
  ) {}

  async create(p: Principal, dto: CreateProviderRequestDto): Promise<ProviderResponse> {
    tenantOnly(p);
    const id = newId();
    const row = await this.db.run(p, (m) =>
      providersRepository.insert(m, {
        tenantId: p.tenantId,
        environmentId: p.environmentId,
        id,
        name: dto.name,
        baseUrl: dto.base_url,
        apiKeyHeader: dto.api_key_header ?? 'authorization',
        models: dto.models.map((x) => ({ id: x.id, kind: x.kind })),
        sealed: dto.api_key ? this.box.seal(p.tenantId, p.environmentId, id, dto.api_key) : null,
      }),
    );
    if (!row) throw ProviderErrors.nameTaken(dto.name);
    this.forget(p);
    return toProviderResponse(row);
  }

  async list(p: Principal, q: PageQueryDto): Promise<Page<ProviderResponse>> {
    tenantOnly(p);
    const after = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.db.run(p, (m) => providersRepository.list(m, after?.id ?? null, q.limit));
    return toPage(rows, q.limit, toProviderResponse, (r) => ({ id: r.id }));
  }

  async get(p: Principal, id: string): Promise<ProviderResponse> {
    tenantOnly(p);
    const row = await this.db.run(p, (m) => providersRepository.get(m, id));
    if (!row) throw ProviderErrors.notFound();
    return toProviderResponse(row);
  }

  async update(p: Principal, id: string, dto: UpdateProviderRequestDto): Promise<ProviderResponse> {
    tenantOnly(p);
    const changes: ProviderChanges = { baseUrl: dto.base_url, apiKeyHeader: dto.api_key_header, models: dto.models?.map((x) => ({ id: x.id, kind: x.kind })) };
    if (dto.api_key !== undefined) changes.sealed = dto.api_key ? this.box.seal(p.tenantId, p.environmentId, id, dto.api_key) : null;
    const row = await this.db.run(p, (m) => providersRepository.update(m, id, changes));
    if (!row) throw ProviderErrors.notFound();
    this.forget(p);
    return toProviderResponse(row);
  }

  async delete(p: Principal, id: string): Promise<void> {
    tenantOnly(p);
    const deleted = await this.db.run(p, (m) => providersRepository.delete(m, id));
    this.forget(p);
    if (!deleted) throw ProviderErrors.notFound();
  }

  /** The environment's providers by name with their keys, cached a few seconds (a change through another replica applies within that). */
  async opened(ctx: TenantContext): Promise<Map<string, OpenProvider>> {
    const key = `${ctx.tenantId}/${ctx.environmentId}`;
    const hit = this.cache.get(key);
    if (hit && hit.until > Date.now()) return hit.providers;
    const rows = await this.db.run({ tenantId: ctx.tenantId, environmentId: ctx.environmentId, scopeId: null }, (m) => providersRepository.all(m));
    const providers = new Map(rows.map((row) => [row.name, { row, apiKey: this.box.open(row) }]));
    if (this.cache.size > 10_000) this.cache.clear();
    this.cache.set(key, { providers, until: Date.now() + CACHE_MS });
    return providers;
  }

  private forget(ctx: TenantContext): void {
    this.cache.delete(`${ctx.tenantId}/${ctx.environmentId}`);
  }
}

function tenantOnly(p: Principal): void {
  if (p.scopeId) throw ProviderErrors.customerForbidden();
}
