import { Injectable } from '@nestjs/common';
import { TenantDb, type TenantContext } from '@platform/db';
import type { ConnectorDefinition } from '@platform/messaging';

export interface InstalledConnector {
  connector_id: string;
  /** Null for the tenant's own (custom) connectors. */
  listing_id: string | null;
  version: string;
  definition: ConnectorDefinition;
  installed_at: Date;
}

const COLUMNS = 'connector_id, listing_id, version, definition, installed_at';

/** Connectors installed into an environment from the marketplace (the only queries on catalog.installed_connectors). */
@Injectable()
export class InstalledConnectors {
  constructor(private readonly db: TenantDb) {}

  list(ctx: TenantContext): Promise<InstalledConnector[]> {
    return this.db.run(ctx, (m) => m.query<InstalledConnector[]>(`select ${COLUMNS} from catalog.installed_connectors order by connector_id`));
  }

  async get(ctx: TenantContext, connectorId: string): Promise<InstalledConnector | undefined> {
    const rows = await this.db.run(ctx, (m) =>
      m.query<InstalledConnector[]>(`select ${COLUMNS} from catalog.installed_connectors where connector_id = $1`, [connectorId]),
    );
    return rows[0];
  }

  /** Installs (or upgrades to) a listing's definition; answers whether it was new. */
  async install(ctx: TenantContext & { tenantId: string; environmentId: string }, listingId: string | null, def: ConnectorDefinition): Promise<boolean> {
    const rows = await this.db.run(ctx, (m) =>
      m.query<{ inserted: boolean }[]>(
        `insert into catalog.installed_connectors (tenant_id, environment_id, connector_id, listing_id, version, definition)
         values ($1, $2, $3, $4, $5, $6)
         on conflict (tenant_id, environment_id, connector_id) do update set listing_id = excluded.listing_id, version = excluded.version,
           definition = excluded.definition, installed_at = now()
         returning (xmax = 0) as inserted`,
        [ctx.tenantId, ctx.environmentId, def.id, listingId, def.version, JSON.stringify(def)],
      ),
    );
    return rows[0].inserted;
  }

  async remove(ctx: TenantContext, connectorId: string): Promise<boolean> {
    const [rows] = await this.db.run(ctx, (m) =>
      m.query<[{ connector_id: string }[], number]>(`delete from catalog.installed_connectors where connector_id = $1 returning connector_id`, [connectorId]),
    );
    return rows.length > 0;
  }
}
