import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { decodeCursor, newId, toPage, type Page } from '@platform/common';
import { TenantDb } from '@platform/db';
import { MAX_CONFIG_BYTES, type ListResourcesQueryDto, type PatchResourceRequestDto, type ResourceRequestDto } from './dto/resource.request.dto.js';
import { toResourceResponse, type ResourceFields, type ResourceResponse } from './resource.record.js';
import { ResourceErrors } from './resources.errors.js';
import { resourcesRepository } from './resources.repository.js';

const isUniqueViolation = (error: unknown) => (error as { code?: string }).code === '23505';

/** Top-level merge in the manner of JSON Merge Patch (RFC 7396): keys in the patch win, null removes. */
export function mergeConfig(current: Record<string, unknown>, patch: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...current };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete merged[key];
    else merged[key] = value;
  }
  return merged;
}

function checked(fields: ResourceFields): ResourceFields {
  if (Buffer.byteLength(JSON.stringify(fields.config)) > MAX_CONFIG_BYTES) throw ResourceErrors.configTooLarge();
  return fields;
}

function fieldsOf(dto: ResourceRequestDto): ResourceFields {
  return checked({ name: dto.name, type: dto.type, config: dto.config, description: dto.description ?? null });
}

@Injectable()
export class ResourcesService {
  constructor(private readonly db: TenantDb) {}

  async list(principal: Principal, query: ListResourcesQueryDto): Promise<Page<ResourceResponse>> {
    const after = decodeCursor(query.cursor, { name: 'text' });
    const rows = await this.db.run(principal, (m) => resourcesRepository.list(m, { type: query.type, afterName: after?.name, limit: query.limit }));
    return toPage(rows, query.limit, toResourceResponse, (r) => ({ name: r.name }));
  }

  async get(principal: Principal, id: string): Promise<ResourceResponse> {
    const row = await this.db.run(principal, (m) => resourcesRepository.get(m, id));
    if (!row) throw ResourceErrors.notFound();
    return toResourceResponse(row);
  }

  async create(principal: Principal, dto: ResourceRequestDto): Promise<ResourceResponse> {
    const fields = fieldsOf(dto);
    const owner = { tenantId: principal.tenantId, environmentId: principal.environmentId, scopeId: principal.scopeId };
    const row = await this.unique(fields.name, () => this.db.run(principal, (m) => resourcesRepository.insert(m, owner, newId(), fields)));
    return toResourceResponse(row);
  }

  async replace(principal: Principal, id: string, dto: ResourceRequestDto): Promise<ResourceResponse> {
    const fields = fieldsOf(dto);
    const row = await this.unique(fields.name, () => this.db.run(principal, (m) => resourcesRepository.update(m, id, fields)));
    if (!row) throw ResourceErrors.notFound();
    return toResourceResponse(row);
  }

  async patch(principal: Principal, id: string, dto: PatchResourceRequestDto): Promise<ResourceResponse> {
    const row = await this.unique(dto.name ?? '', () =>
      this.db.run(principal, async (m) => {
        const current = await resourcesRepository.get(m, id, true);
        if (!current) throw ResourceErrors.notFound();
        const fields = checked({
          name: dto.name ?? current.name,
          type: dto.type ?? current.type,
          config: dto.config ? mergeConfig(current.config, dto.config) : current.config,
          description: dto.description !== undefined ? dto.description : current.description,
        });
        return resourcesRepository.update(m, id, fields);
      }),
    );
    if (!row) throw ResourceErrors.notFound();
    return toResourceResponse(row);
  }

  async delete(principal: Principal, id: string): Promise<void> {
    const deleted = await this.db.run(principal, (m) => resourcesRepository.delete(m, id));
    if (!deleted) throw ResourceErrors.notFound();
  }

  private async unique<T>(name: string, work: () => Promise<T>): Promise<T> {
    try {
      return await work();
    } catch (error) {
      if (isUniqueViolation(error)) throw ResourceErrors.duplicateName(name);
      throw error;
    }
  }
}
