import { Injectable } from '@nestjs/common';
import type { Principal } from '@platform/auth';
import { decodeCursor, newId, toPage, type Page } from '@platform/common';
import { TenantDb, type TenantContext } from '@platform/db';
import { AccountSubjects, Bus, messageContext } from '@platform/messaging';
import { ConnectorDefinitions } from '../connectors/connector-definitions.js';
import { InputValidator } from '../connectors/input-validator.js';
import { splitAuth } from './auth-settings.js';
import { toConnectionResponse, type ConnectionResponse, type ConnectionRow, type ConnectionStatus, type Credentials } from './connection.record.js';
import { ConnectionErrors } from './connections.errors.js';
import { connectionsRepository, type ConnectionChanges } from './connections.repository.js';
import { CredentialBox } from './credential-box.js';
import type { CreateConnectionRequestDto, ListConnectionsQueryDto, UpdateConnectionRequestDto } from './dto/connection.request.dto.js';

/** A connection with its credentials opened, for running operations. */
export interface OpenConnection {
  row: ConnectionRow;
  credentials: Credentials;
}

/**
 * How long a replica reuses an opened connection for operations: most runs call the same few
 * connections over and over. A change or deletion through this replica applies at once, through
 * another within this time; a refreshed or refused OAuth token drops the entry at once.
 */
const OPEN_CACHE_MS = 5000;
const OPEN_CACHE_MAX = 10_000;

/** Connections of an environment (or of one customer): CRUD with sealed credentials. */
@Injectable()
export class ConnectionsService {
  private readonly opened = new Map<string, { open: OpenConnection; until: number }>();
  constructor(
    private readonly db: TenantDb,
    readonly box: CredentialBox,
    private readonly definitions: ConnectorDefinitions,
    private readonly validator: InputValidator,
    private readonly bus: Bus,
  ) {}

  async create(p: Principal, dto: CreateConnectionRequestDto): Promise<ConnectionResponse> {
    const def = await this.definitions.get(p, dto.connector_id);
    const settings = this.validator.check(def.settings_schema, dto.settings ?? {}, 'settings');
    const auth = splitAuth(def, dto.auth);
    const scopeId = await this.owner(p, dto.customer_id);
    const id = newId();
    const status: ConnectionStatus = dto.auth.type === 'oauth2_code' ? 'pending_authorization' : 'active';
    const row = await this.db.run(p, (m) =>
      connectionsRepository.insert(m, {
        tenantId: p.tenantId,
        environmentId: p.environmentId,
        scopeId,
        id,
        name: dto.name,
        connectorId: def.id,
        authType: dto.auth.type,
        authSettings: auth.settings,
        settings,
        sealed: this.box.seal(p.tenantId, p.environmentId, id, auth.credentials),
        status,
        tokenExpiresAt: null,
        createdBy: p.subject,
      }),
    );
    return toConnectionResponse(row, auth.credentials);
  }

  async list(p: Principal, q: ListConnectionsQueryDto): Promise<Page<ConnectionResponse>> {
    const after = decodeCursor(q.cursor, { id: 'uuid' });
    const rows = await this.db.run(p, (m) =>
      connectionsRepository.list(m, {
        own: p.scopeId ?? null,
        connectorId: q.connector_id,
        customerId: q.customer_id,
        status: q.status,
        afterId: after?.id ?? null,
        limit: q.limit,
      }),
    );
    return toPage(
      rows,
      q.limit,
      (r) => this.response(r),
      (r) => ({ id: r.id }),
    );
  }

  async get(p: Principal, id: string): Promise<ConnectionResponse> {
    return this.response(await this.row(p, id));
  }

  /** The connection as its owner's API sees it: a customer sees only its own (never the tenant's). */
  async row(p: Principal, id: string): Promise<ConnectionRow> {
    const row = await this.db.run(p, (m) => connectionsRepository.get(m, id, p.scopeId ?? null));
    if (!row) throw ConnectionErrors.notFound();
    return row;
  }

  async update(p: Principal, id: string, dto: UpdateConnectionRequestDto): Promise<ConnectionResponse> {
    const existing = await this.row(p, id);
    const def = await this.definitions.get(p, existing.connector_id);
    const changes: ConnectionChanges = { name: dto.name };
    if (dto.settings) changes.settings = this.validator.check(def.settings_schema, dto.settings, 'settings');
    let credentials = this.box.open(existing);
    if (dto.auth) {
      const sameType = dto.auth.type === existing.auth_type;
      const auth = splitAuth(def, dto.auth, sameType ? credentials : {});
      credentials = auth.credentials;
      changes.authSettings = auth.settings;
      changes.sealed = this.box.seal(existing.tenant_id, existing.environment_id, id, credentials);
      // New OAuth client settings invalidate the tokens: authorize again.
      changes.status = dto.auth.type === 'oauth2_code' ? 'pending_authorization' : 'active';
      changes.statusReason = null;
      changes.tokenExpiresAt = null;
    }
    const row = await this.db.run(p, async (m) => {
      if (!(await connectionsRepository.get(m, id, p.scopeId ?? null, true))) return undefined;
      return connectionsRepository.update(m, id, changes);
    });
    this.forget(id);
    if (!row) throw ConnectionErrors.notFound();
    return toConnectionResponse(row, credentials);
  }

  async delete(p: Principal, id: string): Promise<void> {
    const deleted = await this.db.run(p, (m) => connectionsRepository.delete(m, id, p.scopeId ?? null));
    this.forget(id);
    if (!deleted) throw ConnectionErrors.notFound();
  }

  /**
   * The connection an operation runs with: the one named (the tenant's, or the caller's customer's),
   * or the calling customer's own connection of a connector.
   */
  async open(ctx: TenantContext, ref: { connectionId?: string; customerConnection?: string }): Promise<OpenConnection> {
    const key = `${ctx.tenantId}/${ctx.environmentId}/${ctx.scopeId ?? ''}/${ref.connectionId ?? `customer:${ref.customerConnection}`}`;
    const cached = this.opened.get(key);
    if (cached && cached.until > Date.now()) return cached.open;
    if (!ref.connectionId && !ctx.scopeId) throw ConnectionErrors.noCustomer();
    const row = await this.db.run(ctx, (m) =>
      ref.connectionId ? connectionsRepository.get(m, ref.connectionId, null) : connectionsRepository.forCustomer(m, ref.customerConnection!, ctx.scopeId!),
    );
    if (!row) throw ref.connectionId ? ConnectionErrors.notFound() : ConnectionErrors.noCustomerConnection(ref.customerConnection!);
    const open = { row, credentials: this.box.open(row) };
    if (this.opened.size >= OPEN_CACHE_MAX) this.opened.clear();
    this.opened.set(key, { open, until: Date.now() + OPEN_CACHE_MS });
    return open;
  }

  /** A connection by id in the given context (the OAuth callback's), without the API's customer filter. */
  find(ctx: TenantContext, id: string): Promise<ConnectionRow | undefined> {
    return this.db.run(ctx, (m) => connectionsRepository.get(m, id, null));
  }

  /** Writes changes made outside the API (OAuth authorization) in the given context; the cache is left as it is. */
  async save(ctx: TenantContext, id: string, changes: ConnectionChanges): Promise<void> {
    await this.db.run(ctx, (m) => connectionsRepository.update(m, id, changes));
  }

  /**
   * Runs `work` in one transaction of the given context with the connection's row locked
   * (`select … for update`, undefined when it is gone); `save` writes changes to it in that
   * transaction. Token refreshes use it so replicas never refresh one token twice.
   */
  locked<T>(
    ctx: TenantContext,
    id: string,
    work: (row: ConnectionRow | undefined, save: (changes: ConnectionChanges) => Promise<void>) => Promise<T>,
  ): Promise<T> {
    return this.db.run(ctx, async (m) =>
      work(await connectionsRepository.get(m, id, null, true), async (changes) => {
        await connectionsRepository.update(m, id, changes);
      }),
    );
  }

  /** Records the outcome of a connection test. */
  async recordTest(p: Principal, id: string, ok: boolean): Promise<void> {
    await this.db.run(p, (m) => connectionsRepository.recordTest(m, id, ok));
  }

  /** Drops a connection from this replica's cache (changed, deleted, token refreshed or refused). */
  forget(id: string): void {
    for (const [key, entry] of this.opened) if (entry.open.row.id === id) this.opened.delete(key);
  }

  response(row: ConnectionRow): ConnectionResponse {
    return toConnectionResponse(row, this.box.open(row));
  }

  /** Whose connection this is: a customer's caller owns its own; a tenant caller may name a customer of the environment. */
  private async owner(p: Principal, customerId: string | undefined): Promise<string | null> {
    if (p.scopeId) {
      if (customerId && customerId !== p.scopeId) throw ConnectionErrors.invalid('customer_id', 'must be the calling customer (or absent)');
      return p.scopeId;
    }
    if (!customerId) return null;
    const { exists } = await this.bus.request(AccountSubjects.customersResolve, { customerId }, messageContext(p), { timeoutMs: 5000 });
    if (!exists) throw ConnectionErrors.invalid('customer_id', 'is not a customer of this environment');
    return customerId;
  }
}
