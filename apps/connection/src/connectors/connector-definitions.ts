import { Injectable } from '@nestjs/common';
import { AppError } from '@platform/common';
import type { TenantContext } from '@platform/db';
import { Bus, BusError, CatalogConnectorSubjects, downstreamRefusal, messageContext, type ConnectorDefinition } from '@platform/messaging';

/** How long a replica reuses a definition: a marketplace (re)install reaches running operations within this. */
const CACHE_MS = 30_000;
const CACHE_MAX = 5000;

/** Connector definitions, asked of the catalog service (which owns them) and kept for a short while. */
@Injectable()
export class ConnectorDefinitions {
  private readonly cache = new Map<string, { def: Promise<ConnectorDefinition>; until: number }>();

  constructor(private readonly bus: Bus) {}

  get(ctx: TenantContext, connectorId: string): Promise<ConnectorDefinition> {
    const key = `${ctx.tenantId}/${ctx.environmentId}/${connectorId}`;
    const cached = this.cache.get(key);
    if (cached && cached.until > Date.now()) return cached.def;
    const def = this.fetch(ctx, connectorId);
    if (this.cache.size >= CACHE_MAX) this.cache.clear();
    this.cache.set(key, { def, until: Date.now() + CACHE_MS });
    def.catch(() => this.cache.delete(key));
    return def;
  }

  private async fetch(ctx: TenantContext, connectorId: string): Promise<ConnectorDefinition> {
    try {
      return await this.bus.request(CatalogConnectorSubjects.connectorsGet, { connectorId }, messageContext(ctx), { timeoutMs: 5000 });
    } catch (error) {
      if (error instanceof BusError && error.remote?.status === 404) {
        throw new AppError('unknown_connector', 400, `No connector ${connectorId} in the catalog`, [
          { field: 'connector_id', message: 'is not a connector of the catalog' },
        ]);
      }
      const refusal = downstreamRefusal(error);
      if (refusal) throw refusal;
      throw new AppError('catalog_unavailable', 503, 'The connector catalog did not answer');
    }
  }
}
