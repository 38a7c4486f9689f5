import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { decodeCursor, toPage, type Page } from '@platform/common';
import { TenantDb } from '@platform/db';
import { AccountSubjects, Bus, messageContext } from '@platform/messaging';
import type { EntityManager } from 'typeorm';
import { lockCustomerForKey } from '../customers/index.js';
import { dataPlaneMode } from '../environments/index.js';
import { toApiKeyResponse, type ApiKeyResponse, type ApiKeyRow } from './api-key.record.js';
import { ApiKeyErrors } from './api-keys.errors.js';
import { apiKeysRepository } from './api-keys.repository.js';
import type { CreateApiKeyRequestDto } from './dto/create-api-key.request.dto.js';
import type { ListApiKeysQueryDto } from './dto/list-api-keys.query.dto.js';
import { KeyHasher } from './key-hasher.js';
import { assertMayIssue, issueKey, issuerOf, type KeyToIssue } from './key-issuing.js';

export type CreatedApiKey = ApiKeyResponse & { key: string };

@Injectable()
export class ApiKeysService {
  constructor(
    private readonly db: TenantDb,
    private readonly hasher: KeyHasher,
    private readonly bus: Bus,
  ) {}

  async create(principal: Principal, dataPlaneId: string, dto: CreateApiKeyRequestDto): Promise<CreatedApiKey> {
    // Keys live in their data plane: a caller reaches only its own (a test key never sees production).
    const unknown = ApiKeyErrors.unknownScopes(dto.scopes);
    if (unknown) throw unknown;
    if (dataPlaneId !== principal.environmentId) throw ApiKeyErrors.dataPlaneNotFound();
    if (dto.expires_at && Date.parse(dto.expires_at) <= Date.now()) throw ApiKeyErrors.expiryInPast();
    const customerId = dto.customer_id ?? null;
    if (dto.type === 'customer' && !customerId) throw ApiKeyErrors.customerIdRequired();
    if (dto.type === 'tenant' && customerId) throw ApiKeyErrors.customerIdForbidden();
    const scopes = [...new Set(dto.scopes)];
    // Refused before the database is asked; issue() holds the same rule for every path.
    assertMayIssue(principal, { type: dto.type, customerId, scopes });

    return this.db.run(principal, async (m) => {
      const mode = await dataPlaneMode(m, dataPlaneId);
      if (!mode) throw ApiKeyErrors.dataPlaneNotFound();
      if (customerId && !(await lockCustomerForKey(m, customerId))) throw ApiKeyErrors.customerNotFound();
      return this.issue(m, principal, {
        name: dto.name,
        type: dto.type,
        mode,
        customerId,
        scopes,
        expiresAt: dto.expires_at ? new Date(dto.expires_at) : null,
      });
    });
  }

  async list(principal: Principal, query: ListApiKeysQueryDto): Promise<Page<ApiKeyResponse>> {
    const after = decodeCursor(query.cursor, { id: 'uuid' });
    const rows = await this.db.run(principal, (m) =>
      apiKeysRepository.list(m, {
        status: query.status,
        type: query.type,
        dataPlaneId: query.data_plane_id,
        customerId: query.customer_id,
        afterId: after?.id,
        limit: query.limit,
      }),
    );
    return toPage(
      rows,
      query.limit,
      (r) => toApiKeyResponse(r),
      (r) => ({ id: r.id }),
    );
  }

  async get(principal: Principal, keyId: string): Promise<ApiKeyResponse> {
    const row = await this.db.run(principal, (m) => apiKeysRepository.get(m, keyId));
    if (!row) throw ApiKeyErrors.notFound();
    return toApiKeyResponse(row);
  }

  /** The successor is issued under the same rule as a new key: rotating a key the caller could not have created is 403. */
  async rotate(principal: Principal, keyId: string, transitionSeconds: number): Promise<CreatedApiKey> {
    const created = await this.db.run(principal, async (m) => {
      const old = await this.activeKey(m, keyId);
      const next = await this.issue(m, principal, {
        name: old.name,
        type: old.type,
        mode: old.mode,
        customerId: old.customer_id,
        scopes: old.scopes,
        expiresAt: old.expires_at,
      });
      const graceUntil = transitionSeconds > 0 ? new Date(Date.now() + transitionSeconds * 1000) : null;
      await apiKeysRepository.markRotated(m, old.id, next.id, graceUntil);
      return next;
    });
    // Cached verifications of the old key predate its grace period: every service drops them.
    await this.announce([keyId], principal);
    return created;
  }

  async revoke(principal: Principal, keyId: string): Promise<ApiKeyResponse> {
    const row = await this.db.run(principal, async (m) => {
      await this.activeKey(m, keyId);
      return apiKeysRepository.revoke(m, keyId);
    });
    // After the commit: a service that asks again now gets the revoked state.
    await this.announce([keyId], principal);
    return toApiKeyResponse(row);
  }

  private async activeKey(m: EntityManager, keyId: string): Promise<ApiKeyRow> {
    const row = await apiKeysRepository.get(m, keyId, true);
    if (!row) throw ApiKeyErrors.notFound();
    const state = toApiKeyResponse(row).status;
    if (state !== 'active') throw ApiKeyErrors.notActive(state);
    return row;
  }

  private async issue(m: EntityManager, principal: Principal, key: Omit<KeyToIssue, 'tenantId' | 'environmentId'>): Promise<CreatedApiKey> {
    const { row, value } = await issueKey(m, this.hasher, issuerOf(principal), {
      tenantId: principal.tenantId,
      environmentId: principal.environmentId,
      ...key,
    });
    return { ...toApiKeyResponse(row), key: value };
  }

  /** Answered only once NATS has the event, so the caller's next request anywhere already fails. */
  private async announce(keyIds: string[], principal: Principal): Promise<void> {
    this.bus.emit(AccountSubjects.keysRevoked, { keyIds }, messageContext(principal));
    await this.bus.connection.flush();
  }
}
